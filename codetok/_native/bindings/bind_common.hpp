// Helpers shared by the Python bindings of the model families (bind_*.cpp): Python strs as
// code points or read in place, many strs in one flat buffer, checked ids and int lists, the
// Token builder and the flat Encoding lists, the token table, numpy arrays, native threads
// and added-token matchers. They only convert (see module.cpp).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "kernels/added.hpp"
#include "kernels/common.hpp"
#include "kernels/norm_steps.hpp"
#include "kernels/threads.hpp"
#include "train/piece_counter.hpp"
#include "kernels/word_splits.hpp"

namespace py = pybind11;

namespace codetok {
namespace bind {

// Append the code points of a Python str (any kind; lone surrogates kept) to ``out``.
inline void append_cps(PyObject* o, std::vector<Cp>& out) {
    if (!PyUnicode_Check(o)) throw py::type_error("expected str, got " + std::string(Py_TYPE(o)->tp_name));
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(o) < 0) throw py::error_already_set();
#endif
    const Py_ssize_t n = PyUnicode_GET_LENGTH(o);
    const int kind = PyUnicode_KIND(o);
    const void* data = PyUnicode_DATA(o);
    const size_t old = out.size();
    out.resize(old + static_cast<size_t>(n));
    Cp* dst = out.data() + old;
    if (kind == PyUnicode_1BYTE_KIND) {
        const auto* p = static_cast<const Py_UCS1*>(data);
        for (Py_ssize_t i = 0; i < n; ++i) dst[i] = p[i];
    } else if (kind == PyUnicode_2BYTE_KIND) {
        const auto* p = static_cast<const Py_UCS2*>(data);
        for (Py_ssize_t i = 0; i < n; ++i) dst[i] = p[i];
    } else {
        const auto* p = static_cast<const Py_UCS4*>(data);
        for (Py_ssize_t i = 0; i < n; ++i) dst[i] = p[i];
    }
}

// A str's buffer, read without the GIL while the str is kept alive.
struct StrView {
    int kind = PyUnicode_1BYTE_KIND;
    const void* data = nullptr;
    size_t n = 0;
};

// Call ``fn(units, n)`` with the str's storage as uint8_t, uint16_t or uint32_t units.
template <class Fn>
void with_units(const StrView& v, Fn&& fn) {
    if (v.kind == PyUnicode_1BYTE_KIND)
        fn(static_cast<const uint8_t*>(v.data), v.n);
    else if (v.kind == PyUnicode_2BYTE_KIND)
        fn(static_cast<const uint16_t*>(v.data), v.n);
    else
        fn(static_cast<const uint32_t*>(v.data), v.n);
}

inline StrView str_view(PyObject* o) {
    if (!PyUnicode_Check(o)) throw py::type_error("expected str, got " + std::string(Py_TYPE(o)->tp_name));
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(o) < 0) throw py::error_already_set();
#endif
    return StrView{static_cast<int>(PyUnicode_KIND(o)), PyUnicode_DATA(o),
                   static_cast<size_t>(PyUnicode_GET_LENGTH(o))};
}

inline std::vector<Cp> cps_of(const py::handle& s) {
    std::vector<Cp> out;
    append_cps(s.ptr(), out);
    return out;
}

// Many strs in one flat buffer: piece k is text[bounds[k]:bounds[k + 1]].
struct Flat {
    std::vector<Cp> text;
    std::vector<size_t> bounds{0};
    size_t size() const { return bounds.size() - 1; }
    const Cp* at(size_t k) const { return text.data() + bounds[k]; }
    size_t len(size_t k) const { return bounds[k + 1] - bounds[k]; }
};

inline Flat flatten(const py::handle& seq) {
    py::object fast = py::reinterpret_steal<py::object>(
        PySequence_Fast(seq.ptr(), "expected a list of str"));
    if (!fast) throw py::error_already_set();
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.ptr());
    PyObject** items = PySequence_Fast_ITEMS(fast.ptr());
    Flat f;
    f.bounds.reserve(static_cast<size_t>(n) + 1);
    for (Py_ssize_t i = 0; i < n; ++i) {
        append_cps(items[i], f.text);
        f.bounds.push_back(f.text.size());
    }
    return f;
}

// A non-negative int that fits int32 (bools and other types are refused).
inline int32_t checked_id(const py::handle& v, const char* what) {
    if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr()))
        throw py::type_error(std::string(what) + " must be an int");
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow != 0 || x < 0 || x > INT32_MAX)
        throw py::value_error(std::string(what) + " must lie in [0, 2**31 - 1]");
    return static_cast<int32_t>(x);
}

// A new reference to the Python int ``v``. Token ids and word indices below 2**20 come
// from one table shared by every tokenizer, each int made on first use and kept: a list of
// ids then costs one reference count per item, not an allocation (and a free when the
// list goes), which was most of the time of ``encode(t).ids`` on a fast plan. GIL held.
// The table itself: a namespace-scope variable (a function-local static paid a guard test
// on every id), filled on first use of each int.
inline std::vector<PyObject*> g_small_ints;

// small_int for an int not in the table yet (or past it).
inline PyObject* small_int_miss(int32_t v) {
    constexpr size_t kCached = size_t{1} << 20;
    std::vector<PyObject*>& table = g_small_ints;
    const auto i = static_cast<size_t>(static_cast<uint32_t>(v));
    if (i >= kCached) return PyLong_FromLong(v);
    if (i >= table.size()) table.resize(std::min(kCached, std::max<size_t>(i + 1, 2 * table.size())));
    PyObject*& o = table[i];
    if (o == nullptr) {
        o = PyLong_FromLong(v);
        if (o == nullptr) return nullptr;
    }
    Py_INCREF(o);
    return o;
}

inline PyObject* small_int(int32_t v) {
    const auto i = static_cast<size_t>(static_cast<uint32_t>(v));
    if (i < g_small_ints.size()) {
        PyObject* o = g_small_ints[i];
        if (o != nullptr) {
            Py_INCREF(o);
            return o;
        }
    }
    return small_int_miss(v);
}

// A new reference to the Python int of the offset ``v``: from small_int's table below
// 2**20, else a new int (offsets are int64). GIL held.
inline PyObject* offset_int(int64_t v) {
    return v >= 0 && v < (int64_t{1} << 20) ? small_int(static_cast<int32_t>(v))
                                            : PyLong_FromLongLong(v);
}

inline py::list int_list(const int32_t* p, size_t n) {
    py::list out(n);
    for (size_t i = 0; i < n; ++i) {
        PyObject* o = small_int(p[i]);
        if (o == nullptr) throw py::error_already_set();
        PyList_SET_ITEM(out.ptr(), i, o);
    }
    return out;
}

// Builds ``token_type(id, value, (start, end))`` objects (a tuple subclass such as the
// models' ``Token``) without calling back into Python code.
class TokenMaker {
  public:
    TokenMaker(const py::handle& token_type, const py::handle& values) {
        if (!PyType_Check(token_type.ptr()) ||
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(token_type.ptr()), &PyTuple_Type))
            throw py::type_error("token_type must be a tuple subclass");
        type_ = py::reinterpret_borrow<py::object>(token_type);
        py::list vals = py::reinterpret_borrow<py::list>(values);  // type-checked by caller
        values_.reserve(vals.size());
        ids_.reserve(vals.size());
        for (size_t i = 0; i < vals.size(); ++i) {
            py::object v = vals[i];
            if (!v.is_none() && !PyUnicode_Check(v.ptr())) throw py::type_error("values must be str or None");
            values_.push_back(v);
            ids_.push_back(py::int_(static_cast<long long>(i)));
        }
    }
    // Value of ``id`` or nullptr when the id has none.
    PyObject* value(int32_t id) const {
        if (id < 0 || static_cast<size_t>(id) >= values_.size()) return nullptr;
        PyObject* v = values_[static_cast<size_t>(id)].ptr();
        return v == Py_None ? nullptr : v;
    }
    // A new reference to the int ``id`` (shared objects for ids of the vocabulary).
    PyObject* id_ref(int32_t id) const {
        if (id >= 0 && static_cast<size_t>(id) < ids_.size()) {
            PyObject* o = ids_[static_cast<size_t>(id)].ptr();
            Py_INCREF(o);
            return o;
        }
        PyObject* o = PyLong_FromLong(id);
        if (!o) throw py::error_already_set();
        return o;
    }
    // A token. Equal tokens are shared (they are immutable tuples), so a repeated token
    // costs a lookup: ``slot`` (>= 0) names the (id, value) pair, -1 disables sharing.
    // Call with the GIL held.
    py::object make(int32_t id, PyObject* value, int64_t start, int64_t end,
                    int64_t slot) const {
        const bool cacheable = slot >= 0 && slot <= INT32_MAX && start >= 0 && end >= 0 &&
                               start < 0x10000 && end < 0x10000;
        uint64_t key = 0;
        if (cacheable) {
            key = (static_cast<uint64_t>(slot) << 32) | (static_cast<uint64_t>(start) << 16) |
                  static_cast<uint64_t>(end);
            auto it = cache_.find(key);
            if (it != cache_.end()) return it->second;
        }
        py::object tok = build(id, value, start, end);
        if (cacheable && cache_.size() < kMaxCached) cache_.emplace(key, tok);
        return tok;
    }

  private:
    static constexpr size_t kMaxCached = 1 << 20;

    py::object build(int32_t id, PyObject* value, int64_t start, int64_t end) const {
        PyObject* idobj;
        if (id >= 0 && static_cast<size_t>(id) < ids_.size()) {
            idobj = ids_[static_cast<size_t>(id)].ptr();
            Py_INCREF(idobj);
        } else {
            idobj = PyLong_FromLong(id);
            if (!idobj) throw py::error_already_set();
        }
        py::object plain = py::reinterpret_steal<py::object>(PyTuple_New(3));
        if (!plain) {
            Py_DECREF(idobj);
            throw py::error_already_set();
        }
        PyTuple_SET_ITEM(plain.ptr(), 0, idobj);
        Py_INCREF(value);
        PyTuple_SET_ITEM(plain.ptr(), 1, value);
        PyObject* span = PyTuple_New(2);
        if (!span) throw py::error_already_set();
        PyTuple_SET_ITEM(plain.ptr(), 2, span);
        PyObject* a = PyLong_FromLongLong(start);
        if (!a) throw py::error_already_set();
        PyTuple_SET_ITEM(span, 0, a);
        PyObject* b = PyLong_FromLongLong(end);
        if (!b) throw py::error_already_set();
        PyTuple_SET_ITEM(span, 1, b);
        if (type_.ptr() == reinterpret_cast<PyObject*>(&PyTuple_Type)) return plain;
        py::tuple args = py::make_tuple(plain);
        PyObject* tok = PyTuple_Type.tp_new(reinterpret_cast<PyTypeObject*>(type_.ptr()),
                                            args.ptr(), nullptr);
        if (!tok) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(tok);
    }

    py::object type_;
    std::vector<py::object> values_;
    std::vector<py::object> ids_;
    mutable std::unordered_map<uint64_t, py::object> cache_;
};

// The flat lists the Tokenizer builds an Encoding from: ``(ids, tokens, offsets, words)``.
// Piece k has counts[k] tokens; token t has id ``id_ref(t)``, string ``value_ref(t)`` (both
// new references) and span spans[2t:2t+2] inside its piece. ``anchors[k]`` is an int (the
// piece has the identity alignment starting there: offsets are base + span) or an object
// whose ``original_span(start, end)`` maps a span of the piece. Piece k's word id is
// ``word_start + word_step * k``. Call with the GIL held.
template <class IdRef, class ValueRef>
py::tuple flat_encoding(const std::vector<size_t>& counts, const std::vector<int64_t>& spans,
                        IdRef id_ref, ValueRef value_ref, const py::handle& anchors,
                        long long word_start, long long word_step) {
    py::object fast = py::reinterpret_steal<py::object>(
        PySequence_Fast(anchors.ptr(), "anchors must be a list"));
    if (!fast) throw py::error_already_set();
    if (static_cast<size_t>(PySequence_Fast_GET_SIZE(fast.ptr())) != counts.size())
        throw py::value_error("anchors and pieces differ in length");
    PyObject** items = PySequence_Fast_ITEMS(fast.ptr());
    size_t total = 0;
    for (size_t c : counts) total += c;
    py::list ids(total), tokens(total), offsets(total), words(total);
    size_t t = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
        PyObject* anchor = items[k];
        const bool identity = PyLong_CheckExact(anchor);
        long long base = 0;
        if (identity) {
            base = PyLong_AsLongLong(anchor);
            if (base == -1 && PyErr_Occurred()) throw py::error_already_set();
        }
        py::object word = py::reinterpret_steal<py::object>(
            PyLong_FromLongLong(word_start + word_step * static_cast<long long>(k)));
        if (!word) throw py::error_already_set();
        for (size_t j = 0; j < counts[k]; ++j, ++t) {
            PyList_SET_ITEM(ids.ptr(), t, id_ref(t));
            PyList_SET_ITEM(tokens.ptr(), t, value_ref(t));
            const long long s = spans[2 * t], e = spans[2 * t + 1];
            PyObject* off;
            if (identity) {
                off = PyTuple_New(2);
                if (!off) throw py::error_already_set();
                PyList_SET_ITEM(offsets.ptr(), t, off);
                PyObject* a = PyLong_FromLongLong(base + s);
                if (!a) throw py::error_already_set();
                PyTuple_SET_ITEM(off, 0, a);
                PyObject* b = PyLong_FromLongLong(base + e);
                if (!b) throw py::error_already_set();
                PyTuple_SET_ITEM(off, 1, b);
            } else {
                off = PyObject_CallMethod(anchor, "original_span", "LL", s, e);
                if (!off) throw py::error_already_set();
                PyList_SET_ITEM(offsets.ptr(), t, off);
            }
            Py_INCREF(word.ptr());
            PyList_SET_ITEM(words.ptr(), t, word.ptr());
        }
    }
    return py::make_tuple(ids, tokens, offsets, words);
}

// Token strings by id, kept natively: the pipeline reads their spaces (ByteLevel offset
// trimming) and builds ``Encoding.tokens`` from them on request.
struct TokenTable {
    std::vector<Cp> chars;
    std::vector<uint64_t> off{0};   // token k: chars[off[k]:off[k + 1]]
    std::vector<uint8_t> present;   // 0: no token has this id

    size_t size() const { return present.size(); }
    bool has(int32_t id) const {
        return id >= 0 && static_cast<size_t>(id) < present.size() && present[static_cast<size_t>(id)];
    }
    const Cp* at(int32_t id) const { return chars.data() + off[static_cast<size_t>(id)]; }
    size_t len(int32_t id) const {
        return static_cast<size_t>(off[static_cast<size_t>(id) + 1] - off[static_cast<size_t>(id)]);
    }
    py::object str(int32_t id) const {
        if (!has(id)) return py::none();
        return py::reinterpret_steal<py::object>(
            PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, at(id), static_cast<py::ssize_t>(len(id))));
    }
};

// One added-token matcher from ``[(content, id, lstrip, rstrip, special), ...]``.
inline codetok::AddedMatcher added_matcher(const py::list& entries, const std::vector<Cp>& ws);

// Normalizer steps (norm_steps.hpp) and word splitting passes (word_splits.hpp) as the
// plans pass them (codetok/engine/plan.py); defined in bind_pipeline.cpp.
std::vector<codetok::NormStep> parse_steps(const py::list& steps);
std::vector<codetok::SplitPass> parse_passes(const py::list& passes);

// ``added_matcher(entries)`` then, in the text between its matches, ``then`` (rows of the
// same shape): HF's normalized added tokens on a text without a normalizer.
inline codetok::AddedMatcher added_matchers(const py::list& entries, const py::list& then,
                                            const std::vector<Cp>& ws) {
    codetok::AddedMatcher m = added_matcher(entries, ws);
    m.set_then(added_matcher(then, ws));
    return m;
}

// A plan's raw and normalized added-token matchers. Behind a normalizer the normalized
// ones (``then``, contents normalized) match its output, apart (``first`` of the pair is
// the raw matcher, ``second`` the normalized one); without one they match the original
// text after the raw ones, chained (``second`` is empty): the same thing then.
inline std::pair<codetok::AddedMatcher, codetok::AddedMatcher> plan_added(
    const py::list& raw, const py::list& then, const std::vector<Cp>& ws, bool normalizer) {
    if (normalizer) return {added_matcher(raw, ws), added_matcher(then, ws)};
    return {added_matchers(raw, then, ws), codetok::AddedMatcher()};
}

inline codetok::AddedMatcher added_matcher(const py::list& entries, const std::vector<Cp>& ws) {
    codetok::AddedMatcher m;
    m.set_whitespace(ws);
    std::vector<Cp> buf;
    for (auto item : entries) {
        py::tuple t = py::reinterpret_borrow<py::tuple>(item);
        if (t.size() != 5 && t.size() != 6)
            throw py::value_error(
                "an added entry is (content, id, lstrip, rstrip, special[, single_word])");
        buf.clear();
        append_cps(t[0].ptr(), buf);
        if (buf.empty()) throw py::value_error("an added token needs non-empty content");
        codetok::AddedEntry e;
        e.id = checked_id(t[1], "added token id");
        e.lstrip = t[2].cast<bool>();
        e.rstrip = t[3].cast<bool>();
        e.special = t[4].cast<bool>();
        e.single_word = t.size() == 6 && t[5].cast<bool>();
        m.add(buf.data(), buf.size(), e);
    }
    return m;
}

inline std::vector<int32_t> sorted_ids(const py::handle& ids) {
    std::vector<int32_t> out;
    for (auto v : ids) out.push_back(checked_id(v, "skipped id"));
    std::sort(out.begin(), out.end());
    return out;
}

// A numpy array that takes over ``v``'s buffer (no copy; ``v`` is left empty): ``rows``
// entries, or ``rows`` x ``cols`` when ``cols`` > 1.
template <class T>
py::array_t<T> move_to_array(std::vector<T>&& v, size_t rows, size_t cols) {
    auto* owner = new std::vector<T>(std::move(v));
    py::capsule base(owner, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    if (cols == 1) return py::array_t<T>({static_cast<py::ssize_t>(rows)}, owner->data(), base);
    return py::array_t<T>({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(cols)},
                          owner->data(), base);
}

template <class T>
py::array_t<T> to_array(const std::vector<T>& v, size_t rows, size_t cols) {
    py::array_t<T> a = cols == 1 ? py::array_t<T>(static_cast<py::ssize_t>(rows))
                                 : py::array_t<T>({static_cast<py::ssize_t>(rows),
                                                   static_cast<py::ssize_t>(cols)});
    if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
    return a;
}

// ``{piece: count}`` of ``counts``, in order of first occurrence.
inline py::dict counts_dict(const codetok::PieceCounts& counts) {
    py::dict out;
    for (size_t k = 0; k < counts.size(); ++k) {
        PyObject* key = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, counts.key(k),
                                                  static_cast<Py_ssize_t>(counts.key_len(k)));
        if (key == nullptr) throw py::error_already_set();
        out[py::reinterpret_steal<py::object>(key)] = counts.count(k);
    }
    return out;
}

// Give the memory a finished native job freed back to the system. Python's own objects
// live in separate arenas, so without this the freed heap would stay in the process's
// resident size while Python goes on allocating (glibc only; elsewhere nothing to do).
inline void release_free_memory() {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

// A batch of ``n`` items: ``run(k)`` (called without the GIL, in order) appends item k's
// results to the caller's arrays and returns how many, or -1 when it has none; then
// ``make(first, count)`` (with the GIL) turns each item's run of results into a Python
// object. The list holds those, and None for -1.
template <class Run, class Make>
py::list counted_batch(size_t n, Run&& run, Make&& make) {
    std::vector<int64_t> counts(n);
    {
        py::gil_scoped_release nogil;
        for (size_t k = 0; k < n; ++k) counts[k] = run(k);
    }
    py::list result(n);
    size_t first = 0;
    for (size_t k = 0; k < n; ++k) {
        if (counts[k] < 0) {
            Py_INCREF(Py_None);
            PyList_SET_ITEM(result.ptr(), k, Py_None);
            continue;
        }
        const size_t c = static_cast<size_t>(counts[k]);
        PyList_SET_ITEM(result.ptr(), k, make(first, c).release().ptr());
        first += c;
    }
    return result;
}

}  // namespace bind
}  // namespace codetok
