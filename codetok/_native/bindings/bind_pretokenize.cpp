// Python binding of the pre-tokenizer scanners: ``_core.scan(scanner, text)`` (used by the
// differential tests; the native pipeline calls codetok::scan directly).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <type_traits>
#include <vector>

#include "bindings/bind_common.hpp"
#include "kernels/pretokenize.hpp"

namespace py = pybind11;

namespace codetok {
namespace {

// The unit types scan() is instantiated for are Python's own.
static_assert(std::is_same_v<Py_UCS1, uint8_t> && std::is_same_v<Py_UCS2, uint16_t> &&
              std::is_same_v<Py_UCS4, uint32_t>);

// The scanner's cut of a Python str, read in place in its own storage (1, 2 or 4 bytes a
// char; lone surrogates are plain 16-bit values), without the GIL. The str cannot change
// meanwhile: it is immutable, and the caller's argument keeps it alive. ``as_array``: the
// ends as a uint32 NumPy array (no int object per end: the sweeps over every code point
// cut texts of millions of pieces).
py::object scan_py(int scanner, const py::handle& text, bool as_array) {
    if (scanner < 0 || scanner >= kScannerCount)
        throw py::value_error("scanner must lie in [0, " + std::to_string(kScannerCount - 1) +
                              "], got " + std::to_string(scanner));
    PyObject* p = text.ptr();
    if (!PyUnicode_Check(p))
        throw py::type_error("text must be a str, got " + std::string(Py_TYPE(p)->tp_name));
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(p) < 0) throw py::error_already_set();
#endif
    const size_t n = static_cast<size_t>(PyUnicode_GET_LENGTH(p));
    const void* data = PyUnicode_DATA(p);
    const int kind = PyUnicode_KIND(p);
    const auto which = static_cast<Scanner>(scanner);
    std::vector<uint32_t> ends;
    {
        py::gil_scoped_release release;
        ends.reserve(n / 4 + 1);
        switch (kind) {
            case PyUnicode_1BYTE_KIND:
                scan(which, static_cast<const Py_UCS1*>(data), n, ends);
                break;
            case PyUnicode_2BYTE_KIND:
                scan(which, static_cast<const Py_UCS2*>(data), n, ends);
                break;
            default:
                scan(which, static_cast<const Py_UCS4*>(data), n, ends);
        }
    }
    if (as_array) {
        const size_t count = ends.size();
        return bind::move_to_array(std::move(ends), count, 1);
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
          py::arg("as_array") = false,
          "End positions of the pieces the pre-tokenizer scanner `scanner` cuts `text` into "
          "(a list, or a uint32 array with `as_array`).");
}
