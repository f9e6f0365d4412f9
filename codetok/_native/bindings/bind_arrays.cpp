// See bind_arrays.hpp. ``Arrays`` is a plain CPython type (not a pybind11 class): it is
// made once per encoded text, and a pybind11 instance costs about 0.1 us more to make and
// as much again per attribute read.
#include "bindings/bind_arrays.hpp"

#include <pybind11/numpy.h>
#include <structmember.h>

#include <array>
#include <cstring>
#include <stdexcept>
#include <memory>
#include <string>
#include <utility>

#include "bindings/bind_common.hpp"
#include "kernels/block_pool.hpp"

namespace codetok {
namespace bind {

// One text's results, shared by the windows cut from it and by the numpy views of them
// (``DataRef``). One allocation holds it all, this header and then its ``n`` tokens'
// ``2n`` offsets (int64), ``n`` ids and ``n`` word ids (int32). It was two (a
// ``std::shared_ptr``'s, holding six vectors, and the arrays'): one allocation fewer per
// text, and a third of the bytes for a short line. ``extra`` keeps the rest of the
// encoding (added-token matches, tokens' own texts), which most texts do not have.
// The blocks of large results (block_pool.hpp): never destroyed, as Data blocks may be
// released by a Python object's deallocation at interpreter exit.
BlockPool& blocks() {
    static BlockPool* pool = new BlockPool();
    return *pool;
}

struct Data {
    size_t refs = 1;  // DataRefs to it; changed with the GIL held, or by its only owner
    size_t n = 0;
    size_t block = 0;  // the size of its allocation (for ``blocks().give``)
    PyObject* text = nullptr;        // owned
    PyObject* model_core = nullptr;  // owned
    std::unique_ptr<Encoded> extra;  // its ids, offsets and words are empty
    const int64_t* offsets() const { return reinterpret_cast<const int64_t*>(this + 1); }
    const int32_t* ids() const { return reinterpret_cast<const int32_t*>(offsets() + 2 * n); }
    const int32_t* words() const { return ids() + n; }
    // The same columns, to write (``make``, ``pack_direct``).
    int64_t* offsets() { return const_cast<int64_t*>(std::as_const(*this).offsets()); }
    int32_t* ids() { return const_cast<int32_t*>(std::as_const(*this).ids()); }
    int32_t* words() { return const_cast<int32_t*>(std::as_const(*this).words()); }

    // A new Data holding a copy of ``out``'s results (its ids, offsets and words must be
    // as many): ``out`` is a per-thread buffer that keeps its capacity for the next text.
    // A new Data of ``n`` tokens, its columns not written yet.
    static Data* make_empty(size_t n) {
        static_assert(sizeof(Data) % alignof(int64_t) == 0, "the offsets follow the header");
        size_t block = 0;
        void* mem = blocks().take(sizeof(Data) + n * (2 * sizeof(int64_t) + 2 * sizeof(int32_t)),
                                  block);
        Data* d = new (mem) Data();
        d->n = n;
        d->block = block;
        return d;
    }

    static Data* make(const Encoded& out) {
        const size_t n = out.ids.size();
        if (out.offsets.size() != 2 * n || out.words.size() != n)
            throw std::logic_error("a native result without offsets or word ids");
        Data* d = make_empty(n);
        if (n != 0) {
            auto* b = reinterpret_cast<char*>(d + 1);
            std::memcpy(b, out.offsets.data(), 2 * n * sizeof(int64_t));
            b += 2 * n * sizeof(int64_t);
            std::memcpy(b, out.ids.data(), n * sizeof(int32_t));
            std::memcpy(b + n * sizeof(int32_t), out.words.data(), n * sizeof(int32_t));
        }
        if (!out.added.empty() || !out.text_at.empty()) {  // copies of exactly their size
            d->extra = std::make_unique<Encoded>();
            d->extra->added = out.added;
            d->extra->text_at = out.text_at;
            d->extra->texts = out.texts;
        }
        return d;
    }
    // Drops one reference; the last frees it (GIL held once it holds ``text``).
    static void release(Data* d) noexcept {
        if (d == nullptr || --d->refs != 0) return;
        Py_XDECREF(d->text);
        Py_XDECREF(d->model_core);
        const size_t block = d->block;
        d->~Data();
        blocks().give(d, block);
    }
};

DataRef::DataRef(DataRef&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
DataRef& DataRef::operator=(DataRef&& o) noexcept {
    if (this != &o) {
        Data::release(p_);
        p_ = o.p_;
        o.p_ = nullptr;
    }
    return *this;
}
DataRef::~DataRef() { Data::release(p_); }
DataRef DataRef::share() const {
    if (p_ != nullptr) ++p_->refs;
    return DataRef(p_);
}

namespace {

struct ArraysObject {
    PyObject_HEAD
    DataRef data;
    Py_ssize_t start;  // the sequence is tokens [start, stop) of ``data``
    Py_ssize_t stop;
    int type_id;
    char trimmed;
    char ranges;       // ``sequence_ranges`` is ``{0: (start, stop)}`` of the sequence, not {}
    PyObject* before;  // tuple of (id, token, type_id)
    PyObject* after;   // tuple of (id, token, type_id)
    PyObject* pad;     // None, or (count, left, pad_id, pad_type_id, pad_token)
    PyObject* ids;     // the cached views, or NULL
    PyObject* offsets;
    PyObject* words;
};

PyTypeObject* g_base = nullptr;    // _core.Arrays
PyTypeObject* g_arrays = nullptr;  // codetok.encoding.NativeArrays once registered
PyTypeObject* g_encoding = nullptr;

// Encoding's slots, in this order (see ``register_encoding_types``).
constexpr std::array<const char*, 10> kEncodingSlots = {
    "_ids",           "_type_ids",      "_tokens",   "_offsets",        "_word_ids",
    "_special_tokens_mask", "_attention_mask", "_overflowing", "_sequence_ranges", "_native"};
std::array<PyObject*, kEncodingSlots.size()> g_slots{};

// The place of slot ``d`` (a member descriptor) in an instance of its class.
PyObject** slot_of(PyObject* d, PyObject* obj) {
    const auto* m = reinterpret_cast<PyMemberDescrObject*>(d);
    return reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + m->d_member->offset);
}

// Runs ``fn`` and turns a C++ exception into a Python one (NULL / -1 to CPython).
template <class Fn>
PyObject* guarded(Fn&& fn) {
    try {
        return fn();
    } catch (py::error_already_set& e) {
        e.restore();
    } catch (py::builtin_exception& e) {
        e.set_error();
    } catch (const std::exception& e) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, e.what());
    }
    return nullptr;
}

ArraysObject* as_arrays(PyObject* o) { return reinterpret_cast<ArraysObject*>(o); }

Py_ssize_t size_of(PyObject* tuple) { return tuple == nullptr ? 0 : PyTuple_GET_SIZE(tuple); }

Py_ssize_t pad_count(const ArraysObject* s) {
    return s->pad == Py_None ? 0 : PyLong_AsSsize_t(PyTuple_GET_ITEM(s->pad, 0));
}

bool pad_left(const ArraysObject* s) {
    return s->pad != Py_None && PyObject_IsTrue(PyTuple_GET_ITEM(s->pad, 1)) == 1;
}

// A new object of ``type`` over ``data``'s tokens [start, stop).
PyObject* new_arrays(PyTypeObject* type, DataRef data, Py_ssize_t start,
                     Py_ssize_t stop, int type_id, bool trimmed, PyObject* before,
                     PyObject* after, PyObject* pad) {
    PyObject* o = type->tp_alloc(type, 0);
    if (o == nullptr) return nullptr;
    ArraysObject* s = as_arrays(o);
    new (&s->data) DataRef(std::move(data));
    s->start = start;
    s->stop = stop;
    s->type_id = type_id;
    s->trimmed = trimmed ? 1 : 0;
    s->ranges = 0;
    Py_INCREF(before);
    s->before = before;
    Py_INCREF(after);
    s->after = after;
    Py_INCREF(pad);
    s->pad = pad;
    s->ids = s->offsets = s->words = nullptr;
    // A Python subclass of Arrays would be a garbage-collected type; but nothing it holds
    // can lead back to it (tuples of ints and strs, None, views whose base is a capsule).
    // Left tracked, a batch of short texts made the collector walk every result again and
    // again (a third of a Unigram batch's time).
    if (PyType_IS_GC(type)) PyObject_GC_UnTrack(o);
    return o;
}

void arrays_dealloc(PyObject* o) {
    ArraysObject* s = as_arrays(o);
    Py_XDECREF(s->before);
    Py_XDECREF(s->after);
    Py_XDECREF(s->pad);
    Py_XDECREF(s->ids);
    Py_XDECREF(s->offsets);
    Py_XDECREF(s->words);
    s->data.~DataRef();
    PyTypeObject* type = Py_TYPE(o);
    type->tp_free(o);
    Py_DECREF(type);  // a heap type: its instances hold a reference to it
}

// A read-only numpy view of ``rows`` x ``cols`` values at ``p``, keeping the data alive.
template <class T>
PyObject* view(const ArraysObject* s, const T* p, Py_ssize_t rows, Py_ssize_t cols) {
    auto* keep = new DataRef(s->data.share());
    py::capsule base(keep, [](void* q) { delete static_cast<DataRef*>(q); });
    const auto item = static_cast<Py_ssize_t>(sizeof(T));
    py::array_t<T> a = cols == 1 ? py::array_t<T>({rows}, {item}, p, base)
                                 : py::array_t<T>({rows, cols}, {cols * item, item}, p, base);
    py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return a.release().ptr();
}

// The view ``o`` keeps in ``slot`` (made on first read): ``cols`` values per token of the
// sequence, from the encoding's ``field``. A new reference.
template <class T>
PyObject* cached_view(PyObject* o, PyObject* ArraysObject::*slot,
                      const T* (Data::*field)() const, Py_ssize_t cols) {
    return guarded([&]() -> PyObject* {
        ArraysObject* s = as_arrays(o);
        PyObject*& v = s->*slot;
        if (v == nullptr)
            v = view(s, ((*s->data).*field)() + cols * s->start, s->stop - s->start, cols);
        Py_INCREF(v);
        return v;
    });
}

PyObject* get_ids(PyObject* o, void*) {
    return cached_view(o, &ArraysObject::ids, &Data::ids, 1);
}

PyObject* get_offsets(PyObject* o, void*) {
    return cached_view(o, &ArraysObject::offsets, &Data::offsets, 2);
}

PyObject* get_words(PyObject* o, void*) {
    return cached_view(o, &ArraysObject::words, &Data::words, 1);
}

PyObject* get_bare(PyObject* o, void*) {
    const ArraysObject* s = as_arrays(o);
    return PyBool_FromLong(size_of(s->before) == 0 && size_of(s->after) == 0 &&
                           s->pad == Py_None);
}

Py_ssize_t arrays_len(PyObject* o) {
    const ArraysObject* s = as_arrays(o);
    return size_of(s->before) + (s->stop - s->start) + size_of(s->after) + pad_count(s);
}

// ``inner(k)`` for the sequence's tokens, with the specials' field ``pick`` around them (a
// new reference to ``fill`` when ``pick`` < 0) and ``pad_value`` for the padding: the
// list :meth:`NativeArrays.around` would build.
template <class Inner>
PyObject* around_list(const ArraysObject* s, int pick, PyObject* fill, PyObject* pad_value,
                      Inner&& inner) {
    const Py_ssize_t nb = size_of(s->before), na = size_of(s->after), n = s->stop - s->start;
    const Py_ssize_t k = pad_count(s);
    if (k < 0 && PyErr_Occurred()) return nullptr;
    const bool left = pad_left(s);
    py::list out(nb + n + na + k);
    Py_ssize_t i = 0;
    auto put = [&](PyObject* v) {  // steals v
        if (v == nullptr) throw py::error_already_set();
        PyList_SET_ITEM(out.ptr(), i++, v);
    };
    auto specials = [&](PyObject* tuple) {
        for (Py_ssize_t j = 0; j < size_of(tuple); ++j) {
            PyObject* v = pick < 0 ? fill : PyTuple_GET_ITEM(PyTuple_GET_ITEM(tuple, j), pick);
            Py_INCREF(v);
            put(v);
        }
    };
    auto padding = [&] {
        for (Py_ssize_t j = 0; j < k; ++j) {
            Py_INCREF(pad_value);
            put(pad_value);
        }
    };
    if (left) padding();
    specials(s->before);
    for (Py_ssize_t j = 0; j < n; ++j) put(inner(s->start + j));
    specials(s->after);
    if (!left) padding();
    return out.release().ptr();
}

PyObject* arrays_id_list(PyObject* o, PyObject*) {
    return guarded([&]() -> PyObject* {
        const ArraysObject* s = as_arrays(o);
        if (size_of(s->before) == 0 && size_of(s->after) == 0 && s->pad == Py_None)  // bare
            return int_list(s->data->ids() + s->start, static_cast<size_t>(s->stop - s->start))
                .release()
                .ptr();
        PyObject* pad_id = s->pad == Py_None ? Py_None : PyTuple_GET_ITEM(s->pad, 2);
        const int32_t* ids = s->data->ids();
        return around_list(s, 0, nullptr, pad_id, [&](Py_ssize_t k) { return small_int(ids[k]); });
    });
}

PyObject* arrays_word_list(PyObject* o, PyObject*) {
    return guarded([&]() -> PyObject* {
        const ArraysObject* s = as_arrays(o);
        const int32_t* words = s->data->words();
        return around_list(s, -1, Py_None, Py_None,
                           [&](Py_ssize_t k) { return small_int(words[k]); });
    });
}

PyObject* arrays_offset_list(PyObject* o, PyObject*) {
    return guarded([&]() -> PyObject* {
        const ArraysObject* s = as_arrays(o);
        py::object zero = py::make_tuple(0, 0);
        const int64_t* offs = s->data->offsets();
        return around_list(s, -1, zero.ptr(), zero.ptr(), [&](Py_ssize_t k) -> PyObject* {
            PyObject* t = PyTuple_New(2);
            if (t == nullptr) return nullptr;
            for (int j = 0; j < 2; ++j) {
                PyObject* v = offset_int(offs[2 * k + j]);
                if (v == nullptr) {
                    Py_DECREF(t);
                    return nullptr;
                }
                PyTuple_SET_ITEM(t, j, v);
            }
            return t;
        });
    });
}

// The token strings of the sequence (specials and padding not included): the model's
// strings, with an added token's matched text and a token's own text (Unigram's unknown
// token) in their places.
PyObject* arrays_tokens(PyObject* o, PyObject*) {
    return guarded([&]() -> PyObject* {
        const ArraysObject* s = as_arrays(o);
        const Data& d = *s->data;
        py::object ids = py::reinterpret_steal<py::object>(get_ids(o, nullptr));
        if (!ids) throw py::error_already_set();
        py::object toks = py::reinterpret_borrow<py::object>(d.model_core).attr("tokens")(ids);
        if (!PyList_Check(toks.ptr()) || PyList_GET_SIZE(toks.ptr()) != s->stop - s->start)
            throw py::type_error("tokens(ids) must give one str per id, as a list");
        auto place = [&](int64_t k, PyObject* v) {
            if (v == nullptr) throw py::error_already_set();
            PyList_SetItem(toks.ptr(), static_cast<Py_ssize_t>(k - s->start), v);  // steals v
        };
        if (!d.extra) return toks.release().ptr();
        const std::vector<int64_t>& added = d.extra->added;
        for (size_t j = 0; j + 2 < added.size(); j += 3)
            if (added[j] >= s->start && added[j] < s->stop)
                place(added[j], PyUnicode_Substring(d.text, added[j + 1], added[j + 2]));
        const std::vector<int64_t>& at = d.extra->text_at;
        for (size_t j = 0; j + 2 < at.size(); j += 3)
            if (at[j] >= s->start && at[j] < s->stop)
                place(at[j], PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND,
                                                       d.extra->texts.data() + at[j + 1],
                                                       static_cast<Py_ssize_t>(at[j + 2] - at[j + 1])));
        return toks.release().ptr();
    });
}

// ``specials`` must be a tuple of (id, token, type_id) tuples.
void check_specials(PyObject* specials) {
    if (!PyTuple_Check(specials)) throw py::type_error("specials must be a tuple");
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(specials); ++j) {
        PyObject* t = PyTuple_GET_ITEM(specials, j);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3)
            throw py::type_error("a special token must be (id, token, type_id)");
    }
}

// ``_with(start, stop, type_id, before, after, pad)``: tokens [start, stop) of this
// sequence (its bare tokens), with new specials around them and new padding.
PyObject* arrays_with(PyObject* o, PyObject* const* args, Py_ssize_t nargs) {
    return guarded([&]() -> PyObject* {
        const ArraysObject* s = as_arrays(o);
        if (nargs != 6) throw py::type_error("_with(start, stop, type_id, before, after, pad)");
        const Py_ssize_t a = PyLong_AsSsize_t(args[0]), b = PyLong_AsSsize_t(args[1]);
        const long type_id = PyLong_AsLong(args[2]);
        if (PyErr_Occurred()) throw py::error_already_set();
        if (a < 0 || a > b || b > s->stop - s->start) throw py::index_error("window out of range");
        check_specials(args[3]);
        check_specials(args[4]);
        if (args[5] != Py_None && !(PyTuple_Check(args[5]) && PyTuple_GET_SIZE(args[5]) == 5 &&
                                    PyLong_Check(PyTuple_GET_ITEM(args[5], 0))))
            throw py::type_error("pad must be None or (count, left, id, type_id, token)");
        return new_arrays(Py_TYPE(o), s->data.share(), s->start + a, s->start + b,
                          static_cast<int>(type_id), s->trimmed != 0, args[3], args[4], args[5]);
    });
}

// ``with_specials(before, after, type_id)``: the same sequence with special tokens around.
PyObject* arrays_with_specials(PyObject* o, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "with_specials(before, after, type_id)");
        return nullptr;
    }
    const ArraysObject* s = as_arrays(o);
    py::object stop = py::int_(s->stop - s->start);
    PyObject* all[] = {small_int(0), stop.ptr(), args[2], args[0], args[1], Py_None};
    PyObject* r = arrays_with(o, all, 6);
    Py_DECREF(all[0]);
    return r;
}

// ``padded(pad)``: the same encoding with padding after it (or before it: ``pad[1]``).
PyObject* arrays_padded(PyObject* o, PyObject* pad) {
    const ArraysObject* s = as_arrays(o);
    py::object stop = py::int_(s->stop - s->start);
    py::object type_id = py::int_(s->type_id);
    PyObject* all[] = {small_int(0), stop.ptr(), type_id.ptr(), s->before, s->after, pad};
    PyObject* r = arrays_with(o, all, 6);
    Py_DECREF(all[0]);
    return r;
}

// ``sliced(start, stop)``: tokens ``start:stop`` of the bare sequence (truncation's windows).
PyObject* arrays_sliced(PyObject* o, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "sliced(start, stop)");
        return nullptr;
    }
    py::object type_id = py::int_(as_arrays(o)->type_id);
    py::tuple none;
    PyObject* all[] = {args[0], args[1], type_id.ptr(), none.ptr(), none.ptr(), Py_None};
    return arrays_with(o, all, 6);
}

PyObject* register_types(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    return guarded([&]() -> PyObject* {
        if (nargs != 2 || !PyType_Check(args[0]) || !PyType_Check(args[1]))
            throw py::type_error("register_encoding_types(NativeArrays, Encoding)");
        auto* arrays = reinterpret_cast<PyTypeObject*>(args[0]);
        auto* encoding = reinterpret_cast<PyTypeObject*>(args[1]);
        if (!PyType_IsSubtype(arrays, g_base) || arrays->tp_basicsize != g_base->tp_basicsize)
            throw py::type_error("NativeArrays must be _core.Arrays (or subclass it with __slots__ = ())");
        std::array<PyObject*, kEncodingSlots.size()> slots{};
        for (size_t k = 0; k < kEncodingSlots.size(); ++k) {
            PyObject* d = PyObject_GetAttrString(args[1], kEncodingSlots[k]);
            if (d == nullptr) throw py::error_already_set();
            if (!PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
                Py_DECREF(d);
                throw py::type_error(std::string("Encoding.") + kEncodingSlots[k] +
                                     " must be a slot");
            }
            slots[k] = d;
        }
        for (PyObject*& d : g_slots) Py_XDECREF(d);
        g_slots = slots;
        Py_INCREF(arrays);
        Py_XDECREF(reinterpret_cast<PyObject*>(g_arrays));
        g_arrays = arrays;
        Py_INCREF(encoding);
        Py_XDECREF(reinterpret_cast<PyObject*>(g_encoding));
        g_encoding = encoding;
        Py_RETURN_NONE;
    });
}

PyGetSetDef arrays_getset[] = {
    {"ids", get_ids, nullptr, "The sequence's ids (int32, read-only view).", nullptr},
    {"offsets", get_offsets, nullptr, "(start, end) per token (int64 (n, 2), read-only).",
     nullptr},
    {"words", get_words, nullptr, "Word index per token (int32, read-only view).", nullptr},
    {"bare", get_bare, nullptr, "Nothing around the sequence: its arrays are everything.",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMemberDef arrays_members[] = {
    {"type_id", T_INT, offsetof(ArraysObject, type_id), READONLY, "The sequence's segment id."},
    {"trimmed", T_BOOL, offsetof(ArraysObject, trimmed), READONLY,
     "The ByteLevel post-processor's offset trimming is applied."},
    {"before", T_OBJECT, offsetof(ArraysObject, before), READONLY,
     "Special tokens before the sequence, (id, token, type_id) each."},
    {"after", T_OBJECT, offsetof(ArraysObject, after), READONLY,
     "Special tokens after the sequence, (id, token, type_id) each."},
    {"pad", T_OBJECT, offsetof(ArraysObject, pad), READONLY,
     "None, or (count, left, pad_id, pad_type_id, pad_token)."},
    {"start", T_PYSSIZET, offsetof(ArraysObject, start), READONLY,
     "First token of the shared result."},
    {"stop", T_PYSSIZET, offsetof(ArraysObject, stop), READONLY,
     "End of the sequence in the shared result."},
    {nullptr, 0, 0, 0, nullptr}};

// ``Encoding.sequence_ranges`` of an encoding made by ``make_encoding``: the sequence's
// span after the specials before it, when the layout had a post-processor.
PyObject* arrays_ranges_dict(PyObject* o, PyObject*) {
    const ArraysObject* s = as_arrays(o);
    PyObject* d = PyDict_New();
    if (d == nullptr || !s->ranges) return d;
    const Py_ssize_t nb = size_of(s->before);
    PyObject* span = Py_BuildValue("(nn)", nb, nb + s->stop - s->start);
    PyObject* key = PyLong_FromLong(0);
    const int err = span == nullptr || key == nullptr ? -1 : PyDict_SetItem(d, key, span);
    Py_XDECREF(span);
    Py_XDECREF(key);
    if (err < 0) Py_CLEAR(d);
    return d;
}

PyMethodDef arrays_methods[] = {
    {"id_list", arrays_id_list, METH_NOARGS, "The ids with the specials and padding around."},
    {"word_list", arrays_word_list, METH_NOARGS, "Word ids; None for specials and padding."},
    {"offset_list", arrays_offset_list, METH_NOARGS,
     "Offsets as tuples; (0, 0) for specials and padding."},
    {"tokens", arrays_tokens, METH_NOARGS, "The sequence's token strings."},
    {"ranges_dict", arrays_ranges_dict, METH_NOARGS,
     "The Encoding's sequence_ranges: {0: (start, stop)} after a post-processor, else {}."},
    {"_with", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(arrays_with)),
     METH_FASTCALL, "_with(start, stop, type_id, before, after, pad): another window."},
    {"with_specials",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(arrays_with_specials)),
     METH_FASTCALL,
     "with_specials(before, after, type_id): the same sequence with special tokens placed "
     "around it, each (id, token, type_id)."},
    {"padded", arrays_padded, METH_O,
     "padded(pad): the same encoding with padding, pad = (count, left, pad_id, pad_type_id, "
     "pad_token); before it when left."},
    {"sliced", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(arrays_sliced)),
     METH_FASTCALL, "sliced(start, stop): tokens start:stop of the bare sequence."},
    {nullptr, nullptr, 0, nullptr}};

// ``LazyList(slot, native, build, setter, doc)``: a data descriptor for a list attribute
// of ``Encoding`` kept in the slot ``slot`` (a member descriptor) and built on first read
// as ``build(obj._native)`` (``native``: that slot's descriptor); assignment calls
// ``setter(obj, value)``. The ``property`` it replaces cost about 0.2 us per first read,
// which ``encode(t).ids`` pays once per text.
struct LazyObject {
    PyObject_HEAD
    PyObject* slot;
    PyObject* native;
    PyObject* build;
    PyObject* setter;
    PyObject* doc;
    // ``build`` when it is a no-argument method written in C (``NativeArrays.id_list``):
    // its function and class, called directly (the method call cost about 30 ns a read).
    PyCFunction direct;
    PyTypeObject* direct_type;
};

LazyObject* as_lazy(PyObject* o) { return reinterpret_cast<LazyObject*>(o); }

int lazy_traverse(PyObject* o, visitproc visit, void* arg) {
    LazyObject* s = as_lazy(o);
    Py_VISIT(s->slot);
    Py_VISIT(s->native);
    Py_VISIT(s->build);
    Py_VISIT(s->setter);
    Py_VISIT(s->doc);
    Py_VISIT(Py_TYPE(o));
    return 0;
}

int lazy_clear(PyObject* o) {
    LazyObject* s = as_lazy(o);
    Py_CLEAR(s->slot);
    Py_CLEAR(s->native);
    Py_CLEAR(s->build);
    Py_CLEAR(s->setter);
    Py_CLEAR(s->doc);
    return 0;
}

void lazy_dealloc(PyObject* o) {
    PyObject_GC_UnTrack(o);
    lazy_clear(o);
    PyTypeObject* type = Py_TYPE(o);
    type->tp_free(o);
    Py_DECREF(type);
}

PyObject* lazy_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
    PyObject *slot, *native, *build, *setter, *doc;
    static const char* names[] = {"slot", "native", "build", "setter", "doc", nullptr};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOO:LazyList", const_cast<char**>(names),
                                     &slot, &native, &build, &setter, &doc))
        return nullptr;
    if (!PyObject_TypeCheck(slot, &PyMemberDescr_Type) ||
        !PyObject_TypeCheck(native, &PyMemberDescr_Type)) {
        PyErr_SetString(PyExc_TypeError, "slot and native must be slot descriptors");
        return nullptr;
    }
    if (!PyCallable_Check(build) || !PyCallable_Check(setter)) {
        PyErr_SetString(PyExc_TypeError, "build and setter must be callable");
        return nullptr;
    }
    PyObject* o = type->tp_alloc(type, 0);
    if (o == nullptr) return nullptr;
    LazyObject* s = as_lazy(o);
    PyObject* parts[] = {slot, native, build, setter, doc};
    PyObject** dst[] = {&s->slot, &s->native, &s->build, &s->setter, &s->doc};
    for (int k = 0; k < 5; ++k) {
        Py_INCREF(parts[k]);
        *dst[k] = parts[k];
    }
    s->direct = nullptr;
    s->direct_type = nullptr;
    if (Py_IS_TYPE(build, &PyMethodDescr_Type)) {
        const auto* m = reinterpret_cast<PyMethodDescrObject*>(build);
        if ((m->d_method->ml_flags & (METH_VARARGS | METH_FASTCALL | METH_NOARGS | METH_O |
                                      METH_KEYWORDS | METH_METHOD)) == METH_NOARGS) {
            s->direct = m->d_method->ml_meth;
            s->direct_type = PyDescr_TYPE(build);  // kept alive by ``build``
        }
    }
    return o;
}

PyObject* lazy_get(PyObject* self, PyObject* obj, PyObject* type) {
    if (obj == nullptr || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    LazyObject* s = as_lazy(self);
    if (Py_TYPE(obj) == PyDescr_TYPE(s->slot) && Py_TYPE(obj) == PyDescr_TYPE(s->native)) {
        // An ``Encoding`` itself: its slots read and written in place (as the descriptors
        // would, without their type checks and calls).
        PyObject** at = slot_of(s->slot, obj);
        PyObject* native = *slot_of(s->native, obj);
        if (*at != nullptr && *at != Py_None) return Py_NewRef(*at);
        if (*at != nullptr && native != nullptr) {
            PyObject* v = s->direct != nullptr && PyObject_TypeCheck(native, s->direct_type)
                              ? s->direct(native, nullptr)
                              : PyObject_CallOneArg(s->build, native);
            if (v == nullptr) return nullptr;
            Py_SETREF(*at, Py_NewRef(v));
            return v;
        }
    }
    PyObject* v = Py_TYPE(s->slot)->tp_descr_get(s->slot, obj, type);
    if (v != Py_None) return v;  // the list, or NULL with the error set
    Py_DECREF(v);
    PyObject* native = Py_TYPE(s->native)->tp_descr_get(s->native, obj, type);
    if (native == nullptr) return nullptr;
    v = PyObject_CallOneArg(s->build, native);
    Py_DECREF(native);
    if (v == nullptr) return nullptr;
    if (Py_TYPE(s->slot)->tp_descr_set(s->slot, obj, v) < 0) {
        Py_DECREF(v);
        return nullptr;
    }
    return v;
}

int lazy_set(PyObject* self, PyObject* obj, PyObject* value) {
    if (value == nullptr) {
        PyErr_SetString(PyExc_AttributeError, "an Encoding's lists cannot be deleted");
        return -1;
    }
    PyObject* r = PyObject_CallFunctionObjArgs(as_lazy(self)->setter, obj, value, nullptr);
    if (r == nullptr) return -1;
    Py_DECREF(r);
    return 0;
}

PyMemberDef lazy_members[] = {
    {"__doc__", T_OBJECT, offsetof(LazyObject, doc), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

}  // namespace

Layout parse_layout(const py::handle& layout) {
    Layout out;
    if (layout.is_none()) {
        out.before = out.after = py::tuple();
        return out;
    }
    py::tuple t = py::reinterpret_borrow<py::tuple>(layout);
    if (!PyTuple_Check(layout.ptr()) || t.size() != 3)
        throw py::type_error("layout must be None or (before, after, type_id)");
    check_specials(t[0].ptr());
    check_specials(t[1].ptr());
    out.before = t[0];
    out.after = t[1];
    out.type_id = t[2].cast<int>();
    out.ranges = true;
    return out;
}

DataRef pack(const Encoded& out) { return DataRef(out.ok ? Data::make(out) : nullptr); }

DataRef pack_direct(size_t n, const std::function<bool(int32_t*, int64_t*, int32_t*)>& fill) {
    DataRef data(Data::make_empty(n));
    if (!fill(data->ids(), data->offsets(), data->words())) return {};
    return data;
}

py::object make_arrays(DataRef data, const py::handle& text, const py::handle& model_core,
                       const Layout& layout, bool trimmed) {
    if (!data) return py::none();
    Data& d = *data;
    Py_INCREF(text.ptr());
    Py_XSETREF(d.text, text.ptr());
    Py_INCREF(model_core.ptr());
    Py_XSETREF(d.model_core, model_core.ptr());
    const auto n = static_cast<Py_ssize_t>(d.n);
    PyTypeObject* type = g_arrays != nullptr ? g_arrays : g_base;
    PyObject* o = new_arrays(type, std::move(data), 0, n, layout.type_id, trimmed,
                             layout.before.ptr(), layout.after.ptr(), Py_None);
    if (o == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(o);
}

py::object make_arrays(const Encoded& out, const py::handle& text, const py::handle& model_core,
                       const Layout& layout, bool trimmed) {
    return make_arrays(pack(out), text, model_core, layout, trimmed);
}

py::object make_encoding(py::object arrays, const Layout& layout) {
    if (arrays.is_none()) return arrays;
    if (g_encoding == nullptr) throw py::type_error("codetok.encoding has not registered Encoding");
    PyObject* e = g_encoding->tp_alloc(g_encoding, 0);
    if (e == nullptr) throw py::error_already_set();
    py::object enc = py::reinterpret_steal<py::object>(e);
    // Every list, ``overflowing`` and ``sequence_ranges`` are made on first read.
    as_arrays(arrays.ptr())->ranges = layout.ranges ? 1 : 0;
    const std::array<PyObject*, kEncodingSlots.size()> values = {
        Py_None, Py_None, Py_None, Py_None, Py_None, Py_None, Py_None,
        Py_None, Py_None, arrays.ptr()};
    // A new Encoding's slots are empty: they are filled in place.
    for (size_t k = 0; k < values.size(); ++k) *slot_of(g_slots[k], e) = Py_NewRef(values[k]);
    // Nothing it holds leads back to it (None, and arrays that are not tracked), and the
    // lists it builds on read hold ints, strs and tuples of ints: left tracked, a batch of
    // encodings made every collection walk them all. Assigning an attribute tracks it
    // again (``gc_track``, called by ``Encoding``'s setters).
    if (PyObject_GC_IsTracked(e)) PyObject_GC_UnTrack(e);
    return enc;
}

void bind_arrays(py::module_& m) {
    PyType_Slot slots[] = {
        {Py_tp_dealloc, reinterpret_cast<void*>(arrays_dealloc)},
        {Py_tp_getset, arrays_getset},
        {Py_tp_members, arrays_members},
        {Py_tp_methods, arrays_methods},
        {Py_sq_length, reinterpret_cast<void*>(arrays_len)},
        {Py_tp_doc, const_cast<char*>(
                        "One native result (ids, offsets, word ids) of one sequence, with the "
                        "special tokens and padding around it; made by the native plans.")},
        {0, nullptr}};
    PyType_Spec spec = {"codetok._core.Arrays", static_cast<int>(sizeof(ArraysObject)), 0,
                        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE |
                            Py_TPFLAGS_DISALLOW_INSTANTIATION,
                        slots};
    PyObject* type = PyType_FromSpec(&spec);
    if (type == nullptr) throw py::error_already_set();
    g_base = reinterpret_cast<PyTypeObject*>(type);
    m.add_object("Arrays", py::reinterpret_steal<py::object>(type));
    Py_INCREF(type);  // g_base outlives the module attribute
    PyType_Slot lazy_slots[] = {
        {Py_tp_new, reinterpret_cast<void*>(lazy_new)},
        {Py_tp_dealloc, reinterpret_cast<void*>(lazy_dealloc)},
        {Py_tp_traverse, reinterpret_cast<void*>(lazy_traverse)},
        {Py_tp_clear, reinterpret_cast<void*>(lazy_clear)},
        {Py_tp_descr_get, reinterpret_cast<void*>(lazy_get)},
        {Py_tp_descr_set, reinterpret_cast<void*>(lazy_set)},
        {Py_tp_members, lazy_members},
        {0, nullptr}};
    PyType_Spec lazy_spec = {"codetok._core.LazyList", static_cast<int>(sizeof(LazyObject)), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, lazy_slots};
    PyObject* lazy = PyType_FromSpec(&lazy_spec);
    if (lazy == nullptr) throw py::error_already_set();
    m.add_object("LazyList", py::reinterpret_steal<py::object>(lazy));
    static PyMethodDef track = {
        "gc_track", [](PyObject*, PyObject* obj) -> PyObject* {
            if (PyObject_IS_GC(obj) && !PyObject_GC_IsTracked(obj)) PyObject_GC_Track(obj);
            Py_RETURN_NONE;
        },
        METH_O, "gc_track(obj): track obj by the garbage collector again (see make_encoding)."};
    PyObject* track_fn = PyCFunction_NewEx(&track, nullptr, m.attr("__name__").ptr());
    if (track_fn == nullptr) throw py::error_already_set();
    m.add_object("gc_track", py::reinterpret_steal<py::object>(track_fn));
    static PyMethodDef reg = {
        "register_encoding_types",
        reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(register_types)),
        METH_FASTCALL,
        "register_encoding_types(NativeArrays, Encoding): the classes native results become."};
    PyObject* fn = PyCFunction_NewEx(&reg, nullptr, m.attr("__name__").ptr());
    if (fn == nullptr) throw py::error_already_set();
    m.add_object("register_encoding_types", py::reinterpret_steal<py::object>(fn));
}

}  // namespace bind
}  // namespace codetok
