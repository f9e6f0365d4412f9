// See bind_method.hpp.
#include "bindings/bind_method.hpp"

#include <structmember.h>

#include <cstddef>

namespace codetok {
namespace bind {
namespace {

struct FastMethodObject {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    FastFn fast;
    PyObject* state;
    PyObject* fallback;
};

PyTypeObject* g_type = nullptr;

FastMethodObject* as_method(PyObject* o) { return reinterpret_cast<FastMethodObject*>(o); }

PyObject* method_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                            PyObject* kwnames) {
    FastMethodObject* m = as_method(self);
    PyObject* r = m->fast(m->state, args, PyVectorcall_NARGS(nargsf), kwnames);
    if (r != nullptr || PyErr_Occurred()) return r;
    return PyObject_Vectorcall(m->fallback, args, nargsf, kwnames);
}

// As a function does: the method itself from the class, bound to an instance.
PyObject* method_get(PyObject* self, PyObject* obj, PyObject* /*type*/) {
    if (obj == nullptr || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

int method_traverse(PyObject* self, visitproc visit, void* arg) {
    Py_VISIT(as_method(self)->state);
    Py_VISIT(as_method(self)->fallback);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

int method_clear(PyObject* self) {
    Py_CLEAR(as_method(self)->state);
    Py_CLEAR(as_method(self)->fallback);
    return 0;
}

void method_dealloc(PyObject* self) {
    PyTypeObject* type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    method_clear(self);
    type->tp_free(self);
    Py_DECREF(type);
}

PyObject* method_repr(PyObject* self) {
    return PyUnicode_FromFormat("<codetok fast method %R>", as_method(self)->fallback);
}

// ``__doc__``, ``__name__``, ``__qualname__`` and ``__module__`` are the fallback's.
PyObject* forward(PyObject* self, void* name) {
    return PyObject_GetAttrString(as_method(self)->fallback, static_cast<const char*>(name));
}

PyGetSetDef method_getset[] = {
    {"__doc__", forward, nullptr, nullptr, const_cast<char*>("__doc__")},
    {"__name__", forward, nullptr, nullptr, const_cast<char*>("__name__")},
    {"__qualname__", forward, nullptr, nullptr, const_cast<char*>("__qualname__")},
    {"__module__", forward, nullptr, nullptr, const_cast<char*>("__module__")},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMemberDef method_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(FastMethodObject, fallback), READONLY,
     "The Python function: the specification, and what answers every other call."},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(FastMethodObject, vectorcall), READONLY,
     nullptr},
    {nullptr, 0, 0, 0, nullptr}};

}  // namespace

PyObject* new_fast_method(FastFn fast, PyObject* state, PyObject* fallback) {
    if (g_type == nullptr) {
        PyErr_SetString(PyExc_RuntimeError, "FastMethod is not initialised");
        return nullptr;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "a FastMethod's fallback must be callable");
        return nullptr;
    }
    PyObject* o = g_type->tp_alloc(g_type, 0);
    if (o == nullptr) return nullptr;
    FastMethodObject* m = as_method(o);
    m->vectorcall = method_vectorcall;
    m->fast = fast;
    Py_INCREF(state);
    m->state = state;
    Py_INCREF(fallback);
    m->fallback = fallback;
    return o;
}

void init_fast_method(PyObject* module) {
    PyType_Slot slots[] = {
        {Py_tp_dealloc, reinterpret_cast<void*>(method_dealloc)},
        {Py_tp_traverse, reinterpret_cast<void*>(method_traverse)},
        {Py_tp_clear, reinterpret_cast<void*>(method_clear)},
        {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
        {Py_tp_descr_get, reinterpret_cast<void*>(method_get)},
        {Py_tp_repr, reinterpret_cast<void*>(method_repr)},
        {Py_tp_getset, method_getset},
        {Py_tp_members, method_members},
        {0, nullptr}};
    PyType_Spec spec = {"codetok._core.FastMethod", static_cast<int>(sizeof(FastMethodObject)), 0,
                        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                            Py_TPFLAGS_METHOD_DESCRIPTOR | Py_TPFLAGS_DISALLOW_INSTANTIATION,
                        slots};
    PyObject* type = PyType_FromSpec(&spec);
    if (type == nullptr) return;
    g_type = reinterpret_cast<PyTypeObject*>(type);
    Py_INCREF(type);  // g_type's own reference
    PyModule_AddObject(module, "FastMethod", type);
}

}  // namespace bind
}  // namespace codetok
