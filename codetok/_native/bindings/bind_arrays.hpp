// ``_core.Arrays``: one native result as a Python object, and the ``Encoding`` over it.
//
// A native plan's result for one sequence (text_pipeline.hpp's ``Encoded``) is handed to
// Python without making numpy arrays or lists of it: ``Arrays`` holds one copy of its
// arrays (``Data``, shared by the windows truncation cuts from it) and makes read-only numpy
// views, the id list and the token strings only when asked. ``codetok.encoding`` names it
// ``NativeArrays`` and adds the rest of the interface in Python.
//
// ``make_encoding`` builds the ``codetok.encoding.Encoding`` over a result in C, as
// ``Encoding._from_native`` does: for a short text, the Python calls around a native call
// cost more than the tokenization itself. Both classes are registered once, by
// codetok/tokenizer/encoding.py, through ``_core.register_encoding_types``.
#pragma once

#include <functional>

#include <pybind11/pybind11.h>

#include "plans/text_pipeline.hpp"

namespace codetok {
namespace bind {

namespace py = pybind11;

// Where the special tokens go around one sequence: ``before`` / ``after`` are tuples of
// ``(id, token, type_id)`` and ``type_id`` is the sequence's segment id.
struct Layout {
    py::object before;  // a tuple
    py::object after;   // a tuple
    int type_id = 0;
    bool ranges = false;  // the encoding has sequence_ranges {0: (start, stop)}
};

// ``layout``: None (no post-processor: nothing around, type 0, no sequence ranges) or
// ``(before, after, type_id)``.
Layout parse_layout(const py::handle& layout);

// One text's result as the ``NativeArrays`` over it hold it (bind_arrays.cpp).
struct Data;

// An owning reference to a ``Data`` (null: none). Dropping the last one frees it, with the
// GIL held once a ``NativeArrays`` has wrapped it; a batch's workers make and hand them
// over without it.
class DataRef {
  public:
    DataRef() = default;
    explicit DataRef(Data* p) : p_(p) {}
    DataRef(const DataRef&) = delete;
    DataRef& operator=(const DataRef&) = delete;
    DataRef(DataRef&& o) noexcept;
    DataRef& operator=(DataRef&& o) noexcept;
    ~DataRef();
    DataRef share() const;  // another reference (GIL held)
    Data* get() const { return p_; }
    Data& operator*() const { return *p_; }
    Data* operator->() const { return p_; }
    explicit operator bool() const { return p_ != nullptr; }

  private:
    Data* p_ = nullptr;
};

// ``out``'s results copied into a new ``Data`` (``out`` is a per-thread buffer that keeps
// its capacity for the next text), or null when ``out.ok`` is false. No Python object is
// touched: a batch's workers pack their texts' results without the GIL, so the thread
// holding it only wraps them.
DataRef pack(const Encoded& out);

// A new ``Data`` of ``n`` tokens whose columns ``fill(ids, offsets, words)`` writes in
// place (``TextPipeline::encode_direct``), or null when it returns false. No Python
// object is touched.
DataRef pack_direct(size_t n, const std::function<bool(int32_t*, int64_t*, int32_t*)>& fill);

// A new ``NativeArrays`` over ``data`` (null: None). ``text``: the encoded str (for added
// tokens' text); ``model_core``: what gives token strings (``tokens(ids)``); ``trimmed``:
// the ByteLevel offset trimming is applied. GIL held.
py::object make_arrays(DataRef data, const py::handle& text, const py::handle& model_core,
                       const Layout& layout, bool trimmed);
// ``make_arrays`` of ``pack(out)``.
py::object make_arrays(const Encoded& out, const py::handle& text, const py::handle& model_core,
                       const Layout& layout, bool trimmed);

// A new ``Encoding`` over ``arrays`` (a ``NativeArrays``, or None: gives None).
py::object make_encoding(py::object arrays, const Layout& layout);

void bind_arrays(py::module_& m);

}  // namespace bind
}  // namespace codetok
