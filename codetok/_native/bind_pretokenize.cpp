// Python binding of the pre-tokenizer scanners: ``_core.scan(scanner, text)`` (used by the
// differential tests; the native pipeline calls codetok::scan directly).
#include <pybind11/pybind11.h>

#include <string>

#include "pretokenize.hpp"

namespace py = pybind11;

namespace codetok {
namespace {

// The code points of a Python str (any kind; lone surrogates kept).
template <typename T>
void widen(const void* data, size_t n, std::vector<Cp>& out) {
    const T* p = static_cast<const T*>(data);
    for (size_t i = 0; i < n; ++i) out[i] = p[i];
}

std::vector<Cp> str_cps(const py::handle& o) {
    PyObject* p = o.ptr();
    if (!PyUnicode_Check(p))
        throw py::type_error("text must be a str, got " + std::string(Py_TYPE(p)->tp_name));
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(p) < 0) throw py::error_already_set();
#endif
    const size_t n = static_cast<size_t>(PyUnicode_GET_LENGTH(p));
    const void* data = PyUnicode_DATA(p);
    std::vector<Cp> out(n);
    switch (PyUnicode_KIND(p)) {
        case PyUnicode_1BYTE_KIND:
            widen<Py_UCS1>(data, n, out);
            break;
        case PyUnicode_2BYTE_KIND:
            widen<Py_UCS2>(data, n, out);
            break;
        default:
            widen<Py_UCS4>(data, n, out);
    }
    return out;
}

py::list scan_py(int scanner, const py::handle& text) {
    if (scanner < 0 || scanner >= kScannerCount)
        throw py::value_error("scanner must lie in [0, " + std::to_string(kScannerCount - 1) +
                              "], got " + std::to_string(scanner));
    const std::vector<Cp> cps = str_cps(text);
    std::vector<uint32_t> ends;
    {
        py::gil_scoped_release release;
        ends.reserve(cps.size() / 4 + 1);
        scan(static_cast<Scanner>(scanner), cps.data(), cps.size(), ends);
    }
    py::list out(ends.size());
    for (size_t i = 0; i < ends.size(); ++i)
        PyList_SET_ITEM(out.ptr(), i, PyLong_FromUnsignedLong(ends[i]));
    return out;
}

}  // namespace
}  // namespace codetok

void bind_pretokenize(py::module_& m) {
    m.def("scan", &codetok::scan_py, py::arg("scanner"), py::arg("text"),
          "End positions of the pieces the pre-tokenizer scanner `scanner` cuts `text` into.");
}
