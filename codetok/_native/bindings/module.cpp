// Python bindings of the native kernels: the private extension ``codetok._core``.
//
// The bindings only convert: Python str -> code points (with the GIL held), run the kernel on
// flat buffers with the GIL released, then build the Python results. They hold no rules:
// options are validated and errors are raised by the models in codetok/models/. Each class
// has a pure-Python twin with the same interface in codetok/reference/.
//
// This file only assembles the module; each family is bound in its own file, over the
// helpers of bind_common.hpp: bind_bpe.cpp (BpeCore, merge tables, tiktoken ranks, the
// binary format's checksum), bind_pipeline.cpp (Pipeline and the plan factories),
// bind_pretokenize.cpp (scan), bind_normalize.cpp (bert_flags, bert_normalize),
// bind_wordpiece.cpp (WordPieceCore), bind_unigram.cpp (UnigramCore), bind_train.cpp
// (the trainers' loops: train_bpe_merges, train_unigram_pieces, PieceCounter) and bind_arrays.cpp
// (Arrays: one native result, and the Encoding over it); bind_method.cpp (FastMethod: the
// C entry of ``Tokenizer.encode``'s common call, made in bind_pipeline.cpp); bind_code.cpp
// (CodeRouter: the code tokenizer's router and channels); bind_random.cpp (SharedRandom:
// the generator of sampling models).
#include <pybind11/pybind11.h>

#include <vector>

#include "bindings/bind_method.hpp"
#include "kernels/common.hpp"
#include "plans/pipeline.hpp"

namespace py = pybind11;
using codetok::Cp;

void bind_bpe(py::module_& m);          // bind_bpe.cpp
void bind_pipeline(py::module_& m);     // bind_pipeline.cpp
void bind_pretokenize(py::module_& m);  // bind_pretokenize.cpp
void bind_normalize(py::module_& m);    // bind_normalize.cpp
void bind_wordpiece(py::module_& m);    // bind_wordpiece.cpp
void bind_unigram(py::module_& m);      // bind_unigram.cpp
void bind_train(py::module_& m);        // bind_train.cpp
void bind_random(py::module_& m);       // bind_random.cpp
namespace codetok::bind {
void bind_arrays(py::module_& m);  // bind_arrays.cpp
void bind_code(py::module_& m);    // bind_code.cpp
}

PYBIND11_MODULE(_core, m) {
    m.doc() = "codetok native kernels (private; see codetok/reference for the readable twins)";
    // A signature names a class only when the class is registered first: BpeCore before
    // Pipeline, WordPieceCore and UnigramCore before their plans (all in bind_pipeline).
    codetok::bind::bind_arrays(m);
    codetok::bind::init_fast_method(m.ptr());
    if (PyErr_Occurred()) throw py::error_already_set();
    bind_random(m);
    bind_bpe(m);
    bind_pretokenize(m);
    bind_normalize(m);
    m.attr("TABLE_LAYOUT") = codetok::kTableLayout;
    m.attr("PY_SPACE") = [] {
        std::vector<Cp> out;
        for (Cp c = 0; c < 0x110000; ++c)
            if (codetok::py_isspace(c)) out.push_back(c);
        return py::reinterpret_steal<py::str>(PyUnicode_FromKindAndData(
            PyUnicode_4BYTE_KIND, out.data(), static_cast<py::ssize_t>(out.size())));
    }();
    bind_wordpiece(m);
    bind_unigram(m);
    bind_train(m);
    bind_pipeline(m);
    codetok::bind::bind_code(m);
}
