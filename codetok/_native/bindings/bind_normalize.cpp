// Python binding of the native normalizers and their tables, for the differential tests
// (the native pipelines call codetok::bert_normalize directly):
// ``_core.bert_flags()``, ``_core.bert_normalize(text, clean_text, handle_chinese_chars,
// strip_accents, lowercase)``, ``_core.grapheme_ends(text)`` and
// ``_core.precompiled_normalize(charsmap, text)``.
#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tables/bert_tables.hpp"
#include "kernels/charsmap.hpp"
#include "kernels/grapheme.hpp"
#include "kernels/norm_steps.hpp"
#include "kernels/normalize.hpp"

namespace py = pybind11;

namespace codetok {
namespace {

// One byte of bert::flags per code point, 0 to U+10FFFF.
py::bytes bert_flags_py() {
    std::string out(0x110000, '\0');
    for (Cp c = 0; c < 0x110000; ++c) out[c] = static_cast<char>(bert::flags(c));
    return py::bytes(out);
}

std::vector<Cp> code_points(const py::str& text) {
    PyObject* p = text.ptr();
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(p) < 0) throw py::error_already_set();
#endif
    std::vector<Cp> out(static_cast<size_t>(PyUnicode_GET_LENGTH(p)));
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = PyUnicode_READ_CHAR(p, static_cast<Py_ssize_t>(i));
    return out;
}

py::tuple text_and_src(const NormalizedText& out) {
    py::str s = py::reinterpret_steal<py::str>(PyUnicode_FromKindAndData(
        PyUnicode_4BYTE_KIND, out.text.data(), static_cast<py::ssize_t>(out.text.size())));
    if (!s) throw py::error_already_set();
    py::list src(out.src.size());
    for (size_t i = 0; i < out.src.size(); ++i)
        PyList_SET_ITEM(src.ptr(), i, PyLong_FromUnsignedLong(out.src[i]));
    return py::make_tuple(s, src);
}

// End index of each extended grapheme cluster of ``text``.
py::list grapheme_ends_py(const py::str& text) {
    const std::vector<Cp> s = code_points(text);
    py::list out;
    for (size_t i = 0; i < s.size();) {
        i = grapheme::cluster_end(s.data(), i, s.size());
        out.append(i);
    }
    return out;
}

// ``Precompiled(charsmap).normalize``: ``(normalized text, original index of each char)``.
py::tuple precompiled_normalize_py(const py::bytes& charsmap, const py::str& text) {
    std::unique_ptr<CharsMap> map;
    try {
        map = std::make_unique<CharsMap>(std::string(charsmap));
    } catch (const std::invalid_argument& e) {
        throw py::value_error(e.what());
    }
    NormalizedText in, out;
    PrecompiledScratch w;
    in.text = code_points(text);
    for (size_t i = 0; i < in.text.size(); ++i) in.src.push_back(static_cast<uint32_t>(i));
    if (!precompiled_normalize(*map, in, out, w)) return text_and_src(in);
    return text_and_src(out);
}

// ``NFC``/``NFD``/``NFKC``/``NFKD`` (``form``) of ``text``: ``(normalized text, original
// index of each char)``.
py::tuple unicode_normalize_py(const py::str& text, const std::string& form) {
    if (form != "NFC" && form != "NFD" && form != "NFKC" && form != "NFKD")
        throw py::value_error("form must be NFC, NFD, NFKC or NFKD, got " + form);
    NormalizedText in, out;
    NormStepsScratch w;
    in.text = code_points(text);
    for (size_t i = 0; i < in.text.size(); ++i) in.src.push_back(static_cast<uint32_t>(i));
    if (!unicode_form(in, out, form.size() == 4, form.back() == 'C', w)) return text_and_src(in);
    return text_and_src(out);
}

// ``(normalized text, original index of each of its chars)``.
py::tuple bert_normalize_py(const py::str& text, bool clean_text, bool chinese, bool strip,
                            bool lower) {
    PyObject* p = text.ptr();
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(p) < 0) throw py::error_already_set();
#endif
    const size_t n = static_cast<size_t>(PyUnicode_GET_LENGTH(p));
    BertNormalizerSpec spec{clean_text, chinese, strip, lower};
    NormalizedText out;
    switch (PyUnicode_KIND(p)) {
        case PyUnicode_1BYTE_KIND:
            bert_normalize(spec, static_cast<const Py_UCS1*>(PyUnicode_DATA(p)), 0, n, out);
            break;
        case PyUnicode_2BYTE_KIND:
            bert_normalize(spec, static_cast<const Py_UCS2*>(PyUnicode_DATA(p)), 0, n, out);
            break;
        default:
            bert_normalize(spec, static_cast<const Py_UCS4*>(PyUnicode_DATA(p)), 0, n, out);
    }
    return text_and_src(out);
}

}  // namespace
}  // namespace codetok

void bind_normalize(py::module_& m) {
    m.def("bert_flags", &codetok::bert_flags_py,
          "bert_tables.hpp's flags of every code point, one byte each.");
    m.def("bert_normalize", &codetok::bert_normalize_py, py::arg("text"), py::arg("clean_text"),
          py::arg("handle_chinese_chars"), py::arg("strip_accents"), py::arg("lowercase"),
          "BertNormalizer of `text`: (normalized text, original index of each char).");
    m.def("grapheme_ends", &codetok::grapheme_ends_py, py::arg("text"),
          "End index of each extended grapheme cluster of `text` (grapheme.hpp).");
    m.def("unicode_normalize", &codetok::unicode_normalize_py, py::arg("text"), py::arg("form"),
          "NFC, NFD, NFKC or NFKD of text with HF's tables: (text, original index per char).");
    m.def("precompiled_normalize", &codetok::precompiled_normalize_py, py::arg("charsmap"),
          py::arg("text"),
          "Precompiled(charsmap) of `text`: (normalized text, original index of each char).");
}
