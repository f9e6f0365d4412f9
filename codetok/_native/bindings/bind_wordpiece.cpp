// Python binding of the WordPiece model (wordpiece.hpp): ``_core.WordPieceCore``
// (bind_wordpiece.hpp).
#include "bindings/bind_wordpiece.hpp"

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

namespace codetok {
namespace bind {

WordPieceCore::WordPieceCore(const py::dict& vocab, const py::handle& token_type,
                             const py::str& prefix, long long max_input_chars_per_word)
    : tokens_(token_type, py::list()),
      kernel_(std::make_shared<codetok::WordPieceKernel>(cps_of(prefix),
                                                         max_input_chars_per_word)) {
    std::vector<Cp> buf;
    for (auto item : vocab) {
        buf.clear();
        append_cps(item.first.ptr(), buf);
        const int32_t key = static_cast<int32_t>(keys_.size());
        keys_.push_back(py::reinterpret_borrow<py::object>(item.first));
        kernel_->add_token(buf.data(), buf.size(), checked_id(item.second, "token id"), key);
        key_ids_.push_back(py::reinterpret_borrow<py::object>(item.second));
    }
}

py::object WordPieceCore::encode_offsets(const py::handle& pieces, const py::handle& anchors,
                                         long long word_start, long long word_step,
                                         long long unk_id, const py::object& unk_token) const {
    Flat f = flatten(pieces);
    std::vector<int32_t> ids, keys;
    std::vector<int64_t> spans;
    std::vector<size_t> counts(f.size());
    bool missing = false;
    {
        py::gil_scoped_release nogil;
        ids.reserve(f.text.size() / 2 + 1);
        for (size_t k = 0; k < f.size(); ++k) {
            const size_t before = ids.size();
            if (!kernel_->encode(f.at(k), f.len(k), ids, keys, spans)) {
                if (unk_id < 0) {
                    missing = true;
                    break;
                }
                ids.push_back(static_cast<int32_t>(unk_id));
                keys.push_back(-1);
                spans.push_back(0);
                spans.push_back(static_cast<int64_t>(f.len(k)));
            }
            counts[k] = ids.size() - before;
        }
    }
    if (missing) return py::none();
    return flat_encoding(
        counts, spans,
        [&](size_t t) -> PyObject* {
            PyObject* o = keys[t] < 0 ? PyLong_FromLongLong(unk_id)
                                      : key_ids_[static_cast<size_t>(keys[t])].ptr();
            if (!o) throw py::error_already_set();
            if (keys[t] >= 0) Py_INCREF(o);
            return o;
        },
        [&](size_t t) {
            PyObject* v = keys[t] < 0 ? unk_token.ptr() : keys_[static_cast<size_t>(keys[t])].ptr();
            Py_INCREF(v);
            return v;
        },
        anchors, word_start, word_step);
}

py::list WordPieceCore::tokenize_batch(const py::handle& pieces) const {
    Flat f = flatten(pieces);
    std::vector<int32_t> ids, keys;
    std::vector<int64_t> spans;
    return counted_batch(
        f.size(),
        [&](size_t k) -> int64_t {  // -1: the piece is unknown
            const size_t before = ids.size();
            if (!kernel_->encode(f.at(k), f.len(k), ids, keys, spans)) return -1;
            return static_cast<int64_t>(ids.size() - before);
        },
        [&](size_t t, size_t c) -> py::object {
            py::list toks(c);
            for (size_t j = 0; j < c; ++j, ++t)
                PyList_SET_ITEM(toks.ptr(), j,
                                tokens_.make(ids[t], keys_[static_cast<size_t>(keys[t])].ptr(),
                                             spans[2 * t], spans[2 * t + 1], keys[t])
                                    .release()
                                    .ptr());
            return std::move(toks);
        });
}

}  // namespace bind
}  // namespace codetok

void bind_wordpiece(py::module_& m) {
    using codetok::bind::WordPieceCore;
    py::class_<WordPieceCore>(m, "WordPieceCore")
        .def(py::init<const py::dict&, const py::handle&, const py::str&, long long>(),
             py::arg("vocab"), py::arg("token_type"), py::kw_only(), py::arg("prefix"),
             py::arg("max_input_chars_per_word"))
        .def("tokenize_batch", &WordPieceCore::tokenize_batch, py::arg("pieces"))
        .def("encode_offsets", &WordPieceCore::encode_offsets, py::arg("pieces"),
             py::arg("anchors"), py::arg("word_start"), py::arg("word_step"), py::arg("unk_id"),
             py::arg("unk_token"));
}
