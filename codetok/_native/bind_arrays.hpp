// ``_core.Arrays``: one native result as a Python object, and the ``Encoding`` over it.
//
// A native plan's result for one sequence (text_pipeline.hpp's ``Encoded``) is handed to
// Python without copying it into numpy arrays or lists: ``Arrays`` owns the vectors (shared
// by the windows truncation cuts from them) and makes read-only numpy views, the id list
// and the token strings only when asked. Python subclasses it as
// ``codetok.encoding.NativeArrays``, which adds the rest of the interface in Python.
//
// ``make_encoding`` builds the ``codetok.encoding.Encoding`` over a result in C, as
// ``Encoding._from_native`` does: for a short text, the Python calls around a native call
// cost more than the tokenization itself. Both classes are registered once, by
// codetok/encoding.py, through ``_core.register_encoding_types``.
#pragma once

#include <pybind11/pybind11.h>

#include "text_pipeline.hpp"

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

// A new ``NativeArrays`` over ``out`` (its vectors are moved out), or None when
// ``out.ok`` is false. ``text``: the encoded str (for added tokens' text);
// ``model_core``: what gives token strings (``tokens(ids)``); ``trimmed``: the ByteLevel
// offset trimming is applied. ``scratch``: ``out`` is a per-thread buffer that keeps its
// capacity for the next text; the result gets exact-size copies of its vectors (moving
// them out made every text grow its vectors from nothing again, a few reallocations each).
py::object make_arrays(Encoded& out, const py::handle& text, const py::handle& model_core,
                       const Layout& layout, bool trimmed, bool scratch = false);

// A new ``Encoding`` over ``arrays`` (a ``NativeArrays``, or None: gives None).
py::object make_encoding(py::object arrays, const Layout& layout);

void bind_arrays(py::module_& m);

}  // namespace bind
}  // namespace codetok
