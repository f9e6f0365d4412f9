// ``_core.FastMethod``: a method whose common call is answered in C, the rest by Python.
//
// ``Tokenizer.encode(text)`` on a short text spent more time in the Python function around
// the native call (binding the arguments, checking the settings and the plan, pybind11's
// dispatch of five arguments) than in tokenizing. A ``FastMethod`` is a class attribute
// that behaves like the Python function it wraps (same signature, docstring, bound and
// unbound calls), but is called through vectorcall: its C ``fast`` function answers the
// calls it recognises and hands every other call, unchanged, to the Python function.
// The Python function stays the whole specification; ``fast`` only takes shortcuts that
// give what it would give.
#pragma once

#include <Python.h>

namespace codetok {
namespace bind {

// ``args[0]`` is the instance. Returns a new reference; or nullptr with an error set (the
// call failed); or nullptr with no error set: the fallback decides.
using FastFn = PyObject* (*)(PyObject* state, PyObject* const* args, size_t nargs,
                             PyObject* kwnames);

// A new ``FastMethod`` (``state`` and ``fallback`` are borrowed and kept), or nullptr with
// the error set.
PyObject* new_fast_method(FastFn fast, PyObject* state, PyObject* fallback);

// Registers the type (once, from module init).
void init_fast_method(PyObject* module);

}  // namespace bind
}  // namespace codetok
