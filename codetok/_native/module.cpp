// Python bindings of the native kernels: the private extension ``codetok._core``.
//
// This file only converts: Python str -> code points (with the GIL held), run the kernel on
// flat buffers with the GIL released, then build the Python results. It holds no rules:
// options are validated and errors are raised by the models in codetok/models/. Each class
// has a pure-Python twin with the same interface in codetok/_reference/.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "bpe.hpp"
#include "pipeline.hpp"
#include "unigram.hpp"
#include "wordpiece.hpp"
#include "wordpiece_pipeline.hpp"

namespace py = pybind11;
using codetok::Cp;

namespace {

// Append the code points of a Python str (any kind; lone surrogates kept) to ``out``.
void append_cps(PyObject* o, std::vector<Cp>& out) {
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

StrView str_view(PyObject* o) {
    if (!PyUnicode_Check(o)) throw py::type_error("expected str, got " + std::string(Py_TYPE(o)->tp_name));
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(o) < 0) throw py::error_already_set();
#endif
    return StrView{PyUnicode_KIND(o), PyUnicode_DATA(o), static_cast<size_t>(PyUnicode_GET_LENGTH(o))};
}

std::vector<Cp> cps_of(const py::handle& s) {
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

Flat flatten(const py::handle& seq) {
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
int32_t checked_id(const py::handle& v, const char* what) {
    if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr()))
        throw py::type_error(std::string(what) + " must be an int");
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow != 0 || x < 0 || x > INT32_MAX)
        throw py::value_error(std::string(what) + " must lie in [0, 2**31 - 1]");
    return static_cast<int32_t>(x);
}

py::list int_list(const int32_t* p, size_t n) {
    py::list out(n);
    for (size_t i = 0; i < n; ++i) PyList_SET_ITEM(out.ptr(), i, PyLong_FromLong(p[i]));
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

// ------------------------------------------------------------------------------- BPE

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

// Decode UTF-8 (3-byte surrogate forms accepted, as Python's "surrogatepass").
bool utf8_decode(const uint8_t* p, size_t n, std::vector<Cp>& out) {
    size_t i = 0;
    while (i < n) {
        const uint8_t b = p[i];
        int extra;
        Cp c;
        if (b < 0x80) { c = b; extra = 0; }
        else if (b >= 0xC2 && b < 0xE0) { c = b & 0x1F; extra = 1; }
        else if (b >= 0xE0 && b < 0xF0) { c = b & 0x0F; extra = 2; }
        else if (b >= 0xF0 && b < 0xF5) { c = b & 0x07; extra = 3; }
        else return false;
        for (int k = 1; k <= extra; ++k) {
            if (i + k >= n || (p[i + k] & 0xC0) != 0x80) return false;
            c = (c << 6) | (p[i + k] & 0x3F);
        }
        if ((extra == 2 && c < 0x800) || (extra == 3 && (c < 0x10000 || c > 0x10FFFF))) return false;
        out.push_back(c);
        i += static_cast<size_t>(extra) + 1;
    }
    return true;
}

class BpeCore {
  public:
    BpeCore(const py::dict& vocab, const py::handle& merges, const py::list& values,
            const py::handle& token_type, const py::str& prefix, const py::str& suffix,
            long long unk_id, bool fuse_unk, bool byte_fallback, bool ignore_merges)
        : tokens_(token_type, values) {
        if (unk_id < INT32_MIN || unk_id > INT32_MAX) throw py::value_error("unk_id out of range");
        codetok::BpeOptions o;
        o.prefix = cps_of(prefix);
        o.suffix = cps_of(suffix);
        o.unk_id = static_cast<int32_t>(unk_id);
        o.fuse_unk = fuse_unk;
        o.byte_fallback = byte_fallback;
        o.ignore_merges = ignore_merges;
        kernel_ = std::make_shared<codetok::BpeKernel>(std::move(o));
        const Py_ssize_t n_merges = PyObject_Length(merges.ptr());
        if (n_merges < 0) throw py::error_already_set();
        kernel_->reserve(vocab.size(), 0, static_cast<size_t>(n_merges));
        std::vector<Cp> buf;
        std::vector<std::pair<int32_t, std::pair<size_t, size_t>>> spans;  // id -> chars
        std::vector<Cp> all;
        for (auto item : vocab) {
            buf.clear();
            append_cps(item.first.ptr(), buf);
            const int32_t id = checked_id(item.second, "token id");
            kernel_->add_token(buf.data(), buf.size(), id);
            spans.push_back({id, {all.size(), buf.size()}});
            all.insert(all.end(), buf.begin(), buf.end());
        }
        // The last token of an id wins, as ``{i: t for t, i in vocab.items()}``.
        int32_t top = -1;
        for (const auto& sp : spans) top = std::max(top, sp.first);
        std::vector<std::pair<size_t, size_t>> by_id(static_cast<size_t>(top + 1), {0, SIZE_MAX});
        for (const auto& sp : spans) by_id[static_cast<size_t>(sp.first)] = sp.second;
        table_.present.assign(by_id.size(), 0);
        table_.off.assign(1, 0);
        for (size_t id = 0; id < by_id.size(); ++id) {
            if (by_id[id].second != SIZE_MAX) {
                table_.present[id] = 1;
                table_.chars.insert(table_.chars.end(), all.begin() + static_cast<std::ptrdiff_t>(by_id[id].first),
                                    all.begin() + static_cast<std::ptrdiff_t>(by_id[id].first + by_id[id].second));
            }
            table_.off.push_back(table_.chars.size());
        }
        add_merges(merges);
    }

    // From a fast-load file's arrays: token k is utf8[offsets[k]:offsets[k + 1]] when
    // present[k]; merges are int32 rows (left, right, rank, new id).
    // ``tables``: None, or the merge and whole-token tables saved by ``tables()`` with the
    // same layout (``(pair_slots, word_slots, keys)`` buffers, kept alive by the caller);
    // then nothing is inserted and the merge rows are not read.
    BpeCore(const py::buffer& utf8, const py::buffer& offsets, const py::buffer& present,
            const py::handle& merges, const py::handle& token_type, const py::str& prefix,
            const py::str& suffix, long long unk_id, bool fuse_unk, bool byte_fallback,
            bool ignore_merges, const py::object& tables)
        : tokens_(token_type, py::list()) {
        codetok::BpeOptions o;
        o.prefix = cps_of(prefix);
        o.suffix = cps_of(suffix);
        o_prefix_empty_ = o.prefix.empty();
        o_suffix_empty_ = o.suffix.empty();
        if (unk_id < INT32_MIN || unk_id > INT32_MAX) throw py::value_error("unk_id out of range");
        o.unk_id = static_cast<int32_t>(unk_id);
        o.fuse_unk = fuse_unk;
        o.byte_fallback = byte_fallback;
        o.ignore_merges = ignore_merges;
        kernel_ = std::make_shared<codetok::BpeKernel>(std::move(o));
        py::buffer_info ub = utf8.request(), ob = offsets.request(), pb = present.request();
        if (ob.itemsize != 4 || pb.itemsize != 1 || ob.ndim != 1 || pb.ndim != 1 ||
            ob.shape[0] != pb.shape[0] + 1)
            throw py::value_error("offsets must be uint32[n + 1] and present uint8[n]");
        const auto* bytes = static_cast<const uint8_t*>(ub.ptr);
        const auto* off = static_cast<const uint32_t*>(ob.ptr);
        const auto* pres = static_cast<const uint8_t*>(pb.ptr);
        const size_t n = static_cast<size_t>(pb.shape[0]);
        const size_t nbytes = static_cast<size_t>(ub.size * ub.itemsize);
        const bool borrowed = !tables.is_none();
        const size_t n_merges = py::isinstance<py::array>(merges)
                                    ? static_cast<size_t>(py::array(py::reinterpret_borrow<py::object>(merges)).shape(0))
                                    : 0;
        if (!borrowed) kernel_->reserve(n, nbytes, n_merges);
        for (size_t k = 0; k < n; ++k)
            if (off[k] > off[k + 1] || off[k + 1] > nbytes) throw py::value_error("bad token offsets");
        table_.present.assign(pres, pres + n);
        // With saved tables and no affixes, only tokens that may be one char (up to 4 bytes)
        // or a "<0xNN>" byte token fill the kernel's own tables; the strings of the others
        // are decoded when first asked for (``table()``).
        const bool lazy = borrowed && o_prefix_empty_ && o_suffix_empty_;
        {
            py::gil_scoped_release nogil;
            std::vector<Cp> buf;
            for (size_t k = 0; k < n; ++k) {
                const size_t len = off[k + 1] - off[k];
                if (!pres[k] || (lazy && len > 4 && len != 6)) continue;
                buf.clear();
                if (!utf8_decode(bytes + off[k], len, buf)) throw std::invalid_argument("a token is not UTF-8");
                kernel_->add_token(buf.data(), buf.size(), static_cast<int32_t>(k), !borrowed);
            }
        }
        store_ = py::make_tuple(utf8, offsets, present);
        if (!borrowed) {
            add_merges(merges);
            return;
        }
        py::tuple t = tables.cast<py::tuple>();
        if (t.size() != 3) throw py::value_error("tables are (pair_slots, word_slots, keys)");
        py::buffer_info pairs = t[0].cast<py::buffer>().request();
        py::buffer_info words = t[1].cast<py::buffer>().request();
        py::buffer_info keys = t[2].cast<py::buffer>().request();
        const auto bytes_of = [](const py::buffer_info& b) { return static_cast<size_t>(b.size * b.itemsize); };
        using PSlot = codetok::PairMap::Slot;
        using WSlot = codetok::StrMap::Slot;
        if (bytes_of(pairs) % sizeof(PSlot) || bytes_of(words) % sizeof(WSlot) || bytes_of(keys) % sizeof(Cp))
            throw py::value_error("saved tables have the wrong sizes");
        tables_ = tables;  // keep the memory alive
        if (!kernel_->borrow_tables(static_cast<const PSlot*>(pairs.ptr), bytes_of(pairs) / sizeof(PSlot),
                                    static_cast<const WSlot*>(words.ptr), bytes_of(words) / sizeof(WSlot),
                                    static_cast<const Cp*>(keys.ptr), bytes_of(keys) / sizeof(Cp)))
            throw py::value_error("saved tables are inconsistent");
    }

    // The merge and whole-token tables as bytes, and their layout version (see
    // ``codetok::kTableLayout``), for the binary format.
    py::tuple tables() const {
        const auto& pm = kernel_->merge_map();
        const auto& wm = kernel_->whole_map();
        auto raw = [](const void* p, size_t n) {
            return py::bytes(static_cast<const char*>(p), static_cast<py::ssize_t>(n));
        };
        return py::make_tuple(raw(pm.slots(), pm.capacity() * sizeof(codetok::PairMap::Slot)),
                              raw(wm.slots(), wm.capacity() * sizeof(codetok::StrMap::Slot)),
                              raw(wm.keys(), wm.n_keys() * sizeof(Cp)), codetok::kTableLayout);
    }

    // Token strings by id (decoded from the fast-load arrays on first use).
    const TokenTable& table() const {
        if (table_.off.size() != table_.present.size() + 1) decode_store();
        return table_;
    }
    const std::vector<uint8_t>& present() const { return table_.present; }

    // Token strings of ids (None where an id has none).
    py::list tokens(const py::handle& ids) const {
        auto a = py::array_t<int32_t, py::array::c_style | py::array::forcecast>::ensure(ids);
        if (!a) throw py::type_error("ids must be an int32 array");
        const int32_t* p = a.data();
        py::list out(static_cast<size_t>(a.size()));
        for (py::ssize_t i = 0; i < a.size(); ++i)
            PyList_SET_ITEM(out.ptr(), i, table().str(p[i]).release().ptr());
        return out;
    }

    // Every token string by id (None for gaps).
    py::list strings() const {
        const TokenTable& tt = table();
        py::list out(tt.size());
        for (size_t i = 0; i < tt.size(); ++i)
            PyList_SET_ITEM(out.ptr(), i, tt.str(static_cast<int32_t>(i)).release().ptr());
        return out;
    }

    // Ids of single characters as whole tokens (-1 where none).
    py::list symbol_ids(const py::str& chars) const {
        std::vector<Cp> cps = cps_of(chars);
        py::list out(cps.size());
        for (size_t i = 0; i < cps.size(); ++i)
            PyList_SET_ITEM(out.ptr(), i, PyLong_FromLong(kernel_->symbol_id(cps[i])));
        return out;
    }

  private:
    // Fill ``table_`` from the fast-load arrays (checked by the constructor).
    void decode_store() const {
        py::tuple st = store_.cast<py::tuple>();
        py::buffer_info ub = st[0].cast<py::buffer>().request();
        py::buffer_info ob = st[1].cast<py::buffer>().request();
        const auto* bytes = static_cast<const uint8_t*>(ub.ptr);
        const auto* off = static_cast<const uint32_t*>(ob.ptr);
        const size_t n = table_.present.size();
        table_.chars.clear();
        table_.chars.reserve(static_cast<size_t>(ub.size));
        table_.off.assign(1, 0);
        table_.off.reserve(n + 1);
        for (size_t k = 0; k < n; ++k) {
            if (table_.present[k] && !utf8_decode(bytes + off[k], off[k + 1] - off[k], table_.chars))
                throw py::value_error("a token is not UTF-8");
            table_.off.push_back(table_.chars.size());
        }
    }

    void add_merges(const py::handle& merges) {
        if (py::isinstance<py::array>(merges)) {
            auto table = py::array_t<int32_t, py::array::c_style | py::array::forcecast>::ensure(merges);
            if (!table || table.ndim() != 2 || table.shape(1) != 4)
                throw py::value_error("a merge table is an int32 array of shape (n, 4)");
            const int32_t* r = table.data();
            for (py::ssize_t i = 0; i < table.shape(0); ++i, r += 4) {
                if (r[0] < 0 || r[1] < 0 || r[2] < 0 || r[3] < 0)
                    throw py::value_error("merge ids and ranks must be non-negative");
                kernel_->add_merge(r[0], r[1], r[2], r[3]);
            }
            return;
        }
        for (auto m : merges) {
            py::object t = py::reinterpret_steal<py::object>(
                PySequence_Fast(m.ptr(), "a merge is (left id, right id, rank, new id)"));
            if (!t) throw py::error_already_set();
            if (PySequence_Fast_GET_SIZE(t.ptr()) != 4)
                throw py::value_error("a merge is (left id, right id, rank, new id)");
            PyObject** it = PySequence_Fast_ITEMS(t.ptr());
            kernel_->add_merge(checked_id(it[0], "merge id"), checked_id(it[1], "merge id"),
                               checked_id(it[2], "merge rank"), checked_id(it[3], "merge id"));
        }
    }

  public:
    py::tuple encode(const py::str& piece) const {
        std::vector<Cp> cps = cps_of(piece);
        codetok::BpeOutput out;
        {
            py::gil_scoped_release nogil;
            kernel_->encode(cps.data(), cps.size(), out);
        }
        py::list spans(out.ids.size());
        for (size_t i = 0; i < out.ids.size(); ++i)
            PyList_SET_ITEM(spans.ptr(), i,
                            py::make_tuple(out.spans[2 * i], out.spans[2 * i + 1]).release().ptr());
        return py::make_tuple(int_list(out.ids.data(), out.ids.size()), spans);
    }

    py::list encode_batch(const py::handle& pieces) const {
        Flat f = flatten(pieces);
        std::vector<codetok::BpeOutput> outs(f.size());
        {
            py::gil_scoped_release nogil;
            for (size_t k = 0; k < f.size(); ++k) kernel_->encode(f.at(k), f.len(k), outs[k]);
        }
        py::list result(f.size());
        for (size_t k = 0; k < f.size(); ++k)
            PyList_SET_ITEM(result.ptr(), k,
                            int_list(outs[k].ids.data(), outs[k].ids.size()).release().ptr());
        return result;
    }

    py::list tokenize_batch(const py::handle& pieces) const {
        Flat f = flatten(pieces);
        codetok::BpeOutput out;
        std::vector<size_t> counts = encode_all(f, out);
        py::list result(f.size());
        size_t t = 0;
        for (size_t k = 0; k < f.size(); ++k) {
            const size_t c = counts[k];
            bool ok = true;
            for (size_t j = t; j < t + c; ++j)
                if (tokens_.value(out.ids[j]) == nullptr) ok = false;
            if (!ok) {
                Py_INCREF(Py_None);
                PyList_SET_ITEM(result.ptr(), k, Py_None);
                t += c;
                continue;
            }
            py::list toks(c);
            for (size_t j = 0; j < c; ++j, ++t) {
                const int32_t id = out.ids[t];
                PyList_SET_ITEM(toks.ptr(), j,
                                tokens_.make(id, tokens_.value(id), out.spans[2 * t],
                                             out.spans[2 * t + 1], id).release().ptr());
            }
            PyList_SET_ITEM(result.ptr(), k, toks.release().ptr());
        }
        return result;
    }

    // See flat_encoding; ``None`` when an id has no token string (the missing unk_token).
    py::object encode_offsets(const py::handle& pieces, const py::handle& anchors,
                              long long word_start, long long word_step) const {
        Flat f = flatten(pieces);
        codetok::BpeOutput out;
        std::vector<size_t> counts = encode_all(f, out);
        for (int32_t id : out.ids)
            if (tokens_.value(id) == nullptr) return py::none();
        const auto& ids = out.ids;
        return flat_encoding(
            counts, out.spans, [&](size_t t) { return tokens_.id_ref(ids[t]); },
            [&](size_t t) {
                PyObject* v = tokens_.value(ids[t]);
                Py_INCREF(v);
                return v;
            },
            anchors, word_start, word_step);
    }

  private:
    // Every piece into one flat output (GIL released); returns the token count per piece.
    std::vector<size_t> encode_all(const Flat& f, codetok::BpeOutput& out) const {
        std::vector<size_t> counts(f.size());
        py::gil_scoped_release nogil;
        out.ids.reserve(f.text.size());
        out.spans.reserve(f.text.size() * 2);
        for (size_t k = 0; k < f.size(); ++k) {
            const size_t before = out.ids.size();
            kernel_->encode(f.at(k), f.len(k), out);
            counts[k] = out.ids.size() - before;
        }
        return counts;
    }

  public:
    std::shared_ptr<const codetok::BpeKernel> kernel() const { return kernel_; }

  private:
    TokenMaker tokens_;
    std::shared_ptr<codetok::BpeKernel> kernel_;
    mutable TokenTable table_;
    py::object store_;   // the fast-load arrays, when built from them
    py::object tables_;  // the borrowed tables' memory, when borrowed
    bool o_prefix_empty_ = true, o_suffix_empty_ = true;
};


// ------------------------------------------------------------------ merge tables
// The BPE merge table of HF merges (``"a b"`` strings or ``[a, b]`` pairs) over ``vocab``:
// rows (left id, right id, rank, id of a + b), rank = position. None when a merge is not
// plain (malformed, or a token missing): the Python model then reports it precisely.
// Twin of ``BPE._build_merges`` without a continuing_subword_prefix.
py::object merge_table(const py::dict& vocab, const py::list& merges) {
    codetok::StrMap ids;
    std::vector<Cp> buf;
    for (auto item : vocab) {
        if (!PyUnicode_Check(item.first.ptr()) || !PyLong_CheckExact(item.second.ptr())) return py::none();
        buf.clear();
        append_cps(item.first.ptr(), buf);
        ids.insert(buf.data(), buf.size(), codetok::StrMap::Entry{checked_id(item.second, "token id"), 0}, true);
    }
    const size_t n = merges.size();
    py::array_t<int32_t> table({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(4)});
    int32_t* row = table.mutable_data();
    std::vector<Cp> left, right;
    for (size_t i = 0; i < n; ++i, row += 4) {
        PyObject* m = PyList_GET_ITEM(merges.ptr(), static_cast<py::ssize_t>(i));
        left.clear();
        right.clear();
        if (PyUnicode_Check(m)) {
            buf.clear();
            append_cps(m, buf);
            auto sp = std::find(buf.begin(), buf.end(), Cp{' '});
            if (sp == buf.end()) return py::none();
            left.assign(buf.begin(), sp);
            right.assign(sp + 1, buf.end());
        } else if ((PyList_Check(m) || PyTuple_Check(m)) && PySequence_Size(m) == 2) {
            py::object a = py::reinterpret_steal<py::object>(PySequence_GetItem(m, 0));
            py::object b = py::reinterpret_steal<py::object>(PySequence_GetItem(m, 1));
            if (!a || !b || !PyUnicode_Check(a.ptr()) || !PyUnicode_Check(b.ptr())) return py::none();
            append_cps(a.ptr(), left);
            append_cps(b.ptr(), right);
        } else {
            return py::none();
        }
        const codetok::StrMap::Entry* ea = ids.find(left.data(), left.size());
        const codetok::StrMap::Entry* eb = ids.find(right.data(), right.size());
        left.insert(left.end(), right.begin(), right.end());
        const codetok::StrMap::Entry* en = ids.find(left.data(), left.size());
        if (!ea || !eb || !en) return py::none();
        row[0] = ea->value;
        row[1] = eb->value;
        row[2] = static_cast<int32_t>(std::min<size_t>(i, INT32_MAX));
        row[3] = en->value;
    }
    return table;
}

// tiktoken mergeable ranks -> merge rows (left, right, rank of the concatenation, same):
// every split of every token into two tokens, ordered as HF's tiktoken converter orders
// them (merged rank, then left rank, then right rank). Twin of ``merges_from_ranks``.
py::array_t<int32_t> rank_merges(const py::dict& ranks) {
    std::unordered_map<std::string, int32_t> rank_of;
    rank_of.reserve(ranks.size() * 2);
    std::vector<std::pair<std::string, int32_t>> tokens;
    tokens.reserve(ranks.size());
    for (auto item : ranks) {
        if (!PyBytes_Check(item.first.ptr())) throw py::type_error("ranks maps bytes to ints");
        std::string tok(PyBytes_AS_STRING(item.first.ptr()),
                        static_cast<size_t>(PyBytes_GET_SIZE(item.first.ptr())));
        const int32_t r = checked_id(item.second, "rank");
        rank_of[tok] = r;
        tokens.emplace_back(std::move(tok), r);
    }
    std::vector<std::array<int32_t, 3>> rows;
    {
        py::gil_scoped_release nogil;
        for (const auto& [tok, r] : tokens) {
            for (size_t i = 1; i < tok.size(); ++i) {
                auto a = rank_of.find(tok.substr(0, i));
                if (a == rank_of.end()) continue;
                auto b = rank_of.find(tok.substr(i));
                if (b != rank_of.end()) rows.push_back({r, a->second, b->second});
            }
        }
        std::sort(rows.begin(), rows.end());
    }
    py::array_t<int32_t> table({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(4)});
    int32_t* out = table.mutable_data();
    for (const auto& row : rows) {
        out[0] = row[1];
        out[1] = row[2];
        out[2] = row[0];
        out[3] = row[0];
        out += 4;
    }
    return table;
}


// A ``.tiktoken`` file's bytes -> {token bytes: rank}, or the 1-based number of the first
// line it does not read plainly (then ``read_tiktoken_file`` reads it in Python and names
// the error exactly). Twin of that function's loop.
py::object read_ranks(const py::bytes& raw) {
    char* data = nullptr;
    py::ssize_t size = 0;
    if (PyBytes_AsStringAndSize(raw.ptr(), &data, &size) < 0) throw py::error_already_set();
    static const auto table = [] {
        std::array<int8_t, 256> t{};
        t.fill(-1);
        const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i) t[static_cast<uint8_t>(abc[i])] = static_cast<int8_t>(i);
        return t;
    }();
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\x0b' || c == '\x0c'; };
    py::dict out;
    std::string tok;
    const char* p = data;
    const char* end = data + size;
    long long lineno = 0;
    while (p < end) {
        const char* eol = p;
        while (eol < end && *eol != '\n' && *eol != '\r') ++eol;
        ++lineno;
        const char* q = p;
        while (q < eol && space(*q)) ++q;
        if (q < eol) {
            const char* f0 = q;
            while (q < eol && !space(*q)) ++q;
            const char* f0e = q;
            while (q < eol && space(*q)) ++q;
            const char* f1 = q;
            while (q < eol && !space(*q)) ++q;
            const char* f1e = q;
            while (q < eol && space(*q)) ++q;
            const size_t n0 = static_cast<size_t>(f0e - f0);
            bool ok = q == eol && f1 < f1e && n0 % 4 == 0 && f1e - f1 <= 9;
            long long rank = 0;
            for (const char* d = f1; ok && d < f1e; ++d) {
                if (*d < '0' || *d > '9') ok = false;
                rank = rank * 10 + (*d - '0');
            }
            tok.clear();
            for (size_t i = 0; ok && i < n0; i += 4) {
                int v[4];
                int pad = 0;
                for (int j = 0; j < 4; ++j) {
                    const char c = f0[i + j];
                    if (c == '=' && i + 4 == n0 && j >= 2) {
                        v[j] = 0;
                        ++pad;
                    } else if (pad || (v[j] = table[static_cast<uint8_t>(c)]) < 0) {
                        ok = false;
                        break;
                    }
                }
                if (!ok) break;
                const unsigned x = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
                tok.push_back(static_cast<char>(x >> 16));
                if (pad < 2) tok.push_back(static_cast<char>((x >> 8) & 0xFF));
                if (pad < 1) tok.push_back(static_cast<char>(x & 0xFF));
            }
            if (!ok) return py::int_(lineno);
            out[py::bytes(tok)] = py::int_(rank);
        }
        // bytes.splitlines(): "\r\n", "\r" or "\n" ends a line.
        p = eol;
        if (p < end && *p == '\r') ++p;
        if (p < end && *p == '\n' && (p == eol || p[-1] == '\r')) ++p;
    }
    return out;
}

// The binary format's checksum (codetok/formats/binary.py): sum of word[i] * (2i + 1) mod
// 2**64 over little-endian uint64 words (the length must be a multiple of 8).
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the binary format's tables are little-endian memory images");

uint64_t checksum(const py::buffer& data) {
    py::buffer_info b = data.request();
    const size_t n = static_cast<size_t>(b.size * b.itemsize);
    if (n % 8) throw py::value_error("the checksummed data must be a multiple of 8 bytes");
    const auto* p = static_cast<const unsigned char*>(b.ptr);
    uint64_t sum = 0;
    py::gil_scoped_release nogil;
    for (size_t i = 0; i < n / 8; ++i) {
        uint64_t w;
        std::memcpy(&w, p + 8 * i, 8);  // the format is little-endian, as this machine
        sum += w * (2 * static_cast<uint64_t>(i) + 1);
    }
    return sum;
}
// --------------------------------------------------------------------- byte pipeline
// One added-token matcher from ``[(content, id, lstrip, rstrip, special), ...]``.
codetok::AddedMatcher added_matcher(const py::list& entries, const std::vector<Cp>& ws) {
    codetok::AddedMatcher m;
    m.set_whitespace(ws);
    std::vector<Cp> buf;
    for (auto item : entries) {
        py::tuple t = py::reinterpret_borrow<py::tuple>(item);
        if (t.size() != 5) throw py::value_error("an added entry is (content, id, lstrip, rstrip, special)");
        buf.clear();
        append_cps(t[0].ptr(), buf);
        if (buf.empty()) throw py::value_error("an added token needs non-empty content");
        codetok::AddedEntry e;
        e.id = checked_id(t[1], "added token id");
        e.lstrip = t[2].cast<bool>();
        e.rstrip = t[3].cast<bool>();
        e.special = t[4].cast<bool>();
        m.add(buf.data(), buf.size(), e);
    }
    return m;
}

std::vector<int32_t> sorted_ids(const py::handle& ids) {
    std::vector<int32_t> out;
    for (auto v : ids) out.push_back(checked_id(v, "skipped id"));
    std::sort(out.begin(), out.end());
    return out;
}

template <class T>
py::array_t<T> to_array(const std::vector<T>& v, size_t rows, size_t cols) {
    py::array_t<T> a = cols == 1 ? py::array_t<T>(static_cast<py::ssize_t>(rows))
                                 : py::array_t<T>({static_cast<py::ssize_t>(rows),
                                                   static_cast<py::ssize_t>(cols)});
    if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
    return a;
}

// Run ``fn(k)`` for k in [0, n) on up to ``threads`` threads (the caller's included). The
// first exception any of them throws is rethrown here, after every thread has stopped.
template <class Fn>
void parallel_for(size_t n, long long threads, Fn fn) {
    const size_t t = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(1LL, threads)), n));
    std::atomic<size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&]() {
        try {
            for (size_t k = next++; k < n; k = next++) fn(k);
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
            next = n;  // the others stop at their next text
        }
    };
    std::vector<std::thread> pool;
    for (size_t i = 1; i < t; ++i) pool.emplace_back(work);
    work();
    for (std::thread& th : pool) th.join();
    if (error) std::rethrow_exception(error);
}

class PipelineCore {
  public:
    // Byte-level when ``spm`` is false (``scanner``, ``add_prefix_space``, 256
    // ``byte_symbols``); SentencePiece-style otherwise (``prepend``: a codetok::Prepend,
    // ``meta``: the visible space, ``spm_words``: Metaspace's cuts are words; the scanner
    // and byte symbols are not used).
    PipelineCore(const BpeCore& bpe, int scanner, bool add_prefix_space,
                 const py::list& byte_symbols, const py::list& raw, const py::list& norm,
                 const py::str& whitespace, bool trims, bool spm, int prepend,
                 const py::str& meta, bool spm_words) {
        codetok::PipelineSpec spec;
        spec.scanner = static_cast<codetok::Scanner>(scanner);
        spec.add_prefix_space = add_prefix_space;
        spec.spm = spm;
        if (spm) {
            std::vector<Cp> m = cps_of(meta);
            if (m.size() != 1) throw py::value_error("meta must be one character");
            if (prepend < 0 || prepend > 3) throw py::value_error("prepend must be 0..3");
            spec.meta = m[0];
            spec.prepend = static_cast<codetok::Prepend>(prepend);
            spec.spm_words = spm_words;
            // Cutting before the meta char is exact when no token holds a char then it.
            const TokenTable& tt = bpe.table();
            bool crossing = false;
            for (size_t i = 0; i < tt.size() && !crossing; ++i) {
                const auto id = static_cast<int32_t>(i);
                if (!tt.has(id)) continue;
                const Cp* c = tt.at(id);
                for (size_t j = 1; j < tt.len(id); ++j)
                    if (c[j] == spec.meta && c[j - 1] != spec.meta) crossing = true;
            }
            spec.spm_split = !crossing;
        } else {
            if (byte_symbols.size() != 256) throw py::value_error("byte_symbols must hold 256 ids");
            for (size_t b = 0; b < 256; ++b)
                spec.byte_symbol[b] = checked_id(byte_symbols[b], "byte symbol");
        }
        spec.has_value = bpe.present();
        if (trims) {
            const TokenTable& tt = bpe.table();
            const size_t nv = tt.size();  // the spaces of each token string, for ByteLevel offset trimming
            spec.lead.assign(nv, 0);
            spec.trail.assign(nv, 0);
            for (size_t i = 0; i < nv; ++i) {
                const auto id = static_cast<int32_t>(i);
                if (!tt.has(id)) continue;
                spec.lead[i] = codetok::lead_spaces(tt.at(id), tt.len(id));
                spec.trail[i] = codetok::trail_spaces(tt.at(id), tt.len(id));
            }
        }
        std::vector<Cp> ws = cps_of(whitespace);
        kernel_ = std::make_unique<codetok::Pipeline>(
            bpe.kernel(), std::move(spec), added_matcher(raw, ws), added_matcher(norm, ws));
    }
    explicit PipelineCore(std::unique_ptr<codetok::TextPipeline> kernel)
        : kernel_(std::move(kernel)) {}

    // ``(ids, offsets, words, added)`` as numpy arrays, or None (the Python path decides).
    py::object encode(const py::str& text, const py::handle& skip, int trim) const {
        const StrView v = str_view(text.ptr());
        std::vector<int32_t> sk = sorted_ids(skip);
        codetok::Encoded out;
        {
            py::gil_scoped_release nogil;
            with_units(v, [&](const auto* t, size_t n) { kernel_->encode(t, n, sk, trim, true, out); });
        }
        return arrays(out);
    }

    // Token ids only, as a list; None when the Python path must decide.
    py::object encode_ids(const py::str& text, const py::handle& skip) const {
        const StrView v = str_view(text.ptr());
        std::vector<int32_t> sk = sorted_ids(skip);
        codetok::Encoded out;
        {
            py::gil_scoped_release nogil;
            with_units(v, [&](const auto* t, size_t n) { kernel_->encode(t, n, sk, 0, false, out); });
        }
        if (!out.ok) return py::none();
        return int_list(out.ids.data(), out.ids.size());
    }

    // ``encode`` of every text on native threads; entries are None where it would be.
    py::list encode_batch(const py::handle& texts, const py::handle& skip, int trim,
                          long long threads) const {
        std::vector<codetok::Encoded> outs = run(texts, skip, trim, true, threads);
        py::list result(outs.size());
        for (size_t k = 0; k < outs.size(); ++k)
            PyList_SET_ITEM(result.ptr(), k, arrays(outs[k]).release().ptr());
        return result;
    }

    py::list encode_ids_batch(const py::handle& texts, const py::handle& skip,
                              long long threads) const {
        std::vector<codetok::Encoded> outs = run(texts, skip, 0, false, threads);
        py::list result(outs.size());
        for (size_t k = 0; k < outs.size(); ++k) {
            py::object o = outs[k].ok ? py::object(int_list(outs[k].ids.data(), outs[k].ids.size()))
                                      : py::object(py::none());
            PyList_SET_ITEM(result.ptr(), k, o.release().ptr());
        }
        return result;
    }

    // All ids of all texts in one int32 array, and the int64 bounds (text k is
    // ids[bounds[k]:bounds[k + 1]]); None when any text needs the Python path.
    py::object encode_flat(const py::handle& texts, const py::handle& skip,
                           long long threads) const {
        std::vector<codetok::Encoded> outs = run(texts, skip, 0, false, threads);
        std::vector<int64_t> bounds{0};
        for (const auto& o : outs) {
            if (!o.ok) return py::none();
            bounds.push_back(bounds.back() + static_cast<int64_t>(o.ids.size()));
        }
        py::array_t<int32_t> ids(static_cast<py::ssize_t>(bounds.back()));
        int32_t* dst = ids.mutable_data();
        for (const auto& o : outs) {
            if (!o.ids.empty()) std::memcpy(dst, o.ids.data(), o.ids.size() * sizeof(int32_t));
            dst += o.ids.size();
        }
        return py::make_tuple(ids, to_array(bounds, bounds.size(), 1));
    }

  private:
    std::vector<codetok::Encoded> run(const py::handle& texts, const py::handle& skip, int trim,
                                      bool want_offsets, long long threads) const {
        // The strs stay alive and immutable in ``seq`` while the workers read them in place
        // without the GIL.
        py::object seq = py::reinterpret_steal<py::object>(
            PySequence_Fast(texts.ptr(), "expected a list of str"));
        if (!seq) throw py::error_already_set();
        const size_t n = static_cast<size_t>(PySequence_Fast_GET_SIZE(seq.ptr()));
        PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
        std::vector<StrView> views(n);
        for (size_t k = 0; k < n; ++k) views[k] = str_view(items[k]);
        std::vector<int32_t> sk = sorted_ids(skip);
        std::vector<codetok::Encoded> outs(n);
        py::gil_scoped_release nogil;
        // Longest texts first, so no thread is left with a long one at the end.
        std::vector<size_t> order(n);
        for (size_t k = 0; k < n; ++k) order[k] = k;
        if (threads > 1)
            std::stable_sort(order.begin(), order.end(),
                             [&](size_t x, size_t y) { return views[x].n > views[y].n; });
        parallel_for(n, threads, [&](size_t i) {
            const size_t k = order[i];
            with_units(views[k], [&](const auto* t, size_t len) {
                kernel_->encode(t, len, sk, trim, want_offsets, outs[k]);
            });
        });
        return outs;
    }

    static py::object arrays(const codetok::Encoded& out) {
        if (!out.ok) return py::none();
        const size_t n = out.ids.size();
        return py::make_tuple(to_array(out.ids, n, 1), to_array(out.offsets, n, 2),
                              to_array(out.words, n, 1), to_array(out.added, out.added.size() / 3, 3));
    }

    std::unique_ptr<codetok::TextPipeline> kernel_;
};

// ------------------------------------------------------------------------- WordPiece
class WordPieceCore {
  public:
    WordPieceCore(const py::dict& vocab, const py::handle& token_type, const py::str& prefix,
                  long long max_input_chars_per_word)
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

    // See flat_encoding. A piece the vocabulary cannot cover becomes one token
    // ``(unk_id, unk_token, (0, len))``; ``None`` when that is needed and unk_id < 0.
    py::object encode_offsets(const py::handle& pieces, const py::handle& anchors,
                              long long word_start, long long word_step, long long unk_id,
                              const py::object& unk_token) const {
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

    py::list tokenize_batch(const py::handle& pieces) const {
        Flat f = flatten(pieces);
        std::vector<int32_t> ids, keys;
        std::vector<int64_t> spans;
        std::vector<int64_t> counts(f.size());  // -1: the piece is unknown
        {
            py::gil_scoped_release nogil;
            for (size_t k = 0; k < f.size(); ++k) {
                const size_t before = ids.size();
                const bool ok = kernel_->encode(f.at(k), f.len(k), ids, keys, spans);
                counts[k] = ok ? static_cast<int64_t>(ids.size() - before) : -1;
            }
        }
        py::list result(f.size());
        size_t t = 0;
        for (size_t k = 0; k < f.size(); ++k) {
            if (counts[k] < 0) {
                Py_INCREF(Py_None);
                PyList_SET_ITEM(result.ptr(), k, Py_None);
                continue;
            }
            const size_t c = static_cast<size_t>(counts[k]);
            py::list toks(c);
            for (size_t j = 0; j < c; ++j, ++t)
                PyList_SET_ITEM(toks.ptr(), j,
                                tokens_.make(ids[t], keys_[static_cast<size_t>(keys[t])].ptr(),
                                             spans[2 * t], spans[2 * t + 1], keys[t])
                                    .release()
                                    .ptr());
            PyList_SET_ITEM(result.ptr(), k, toks.release().ptr());
        }
        return result;
    }

    std::shared_ptr<const codetok::WordPieceKernel> kernel() const { return kernel_; }

  private:
    TokenMaker tokens_;
    std::shared_ptr<codetok::WordPieceKernel> kernel_;
    std::vector<py::object> keys_;
    std::vector<py::object> key_ids_;  // the vocabulary's id object of each key
};

// The WordPiece plan (wordpiece_pipeline.hpp): ``bert`` is None (no normalizer) or
// ``(clean_text, handle_chinese_chars, strip_accents, lowercase)``; ``unk_id`` -1 when the
// unknown token is not in the vocabulary.
PipelineCore wordpiece_pipeline(const WordPieceCore& wp, const py::object& bert, long long unk_id,
                                const py::list& raw, const py::str& whitespace) {
    codetok::WordPieceSpec spec;
    if (!bert.is_none()) {
        py::tuple b = bert.cast<py::tuple>();
        if (b.size() != 4) throw py::value_error("bert is (clean_text, chinese, strip, lower)");
        spec.normalize = true;
        spec.bert.clean_text = b[0].cast<bool>();
        spec.bert.handle_chinese_chars = b[1].cast<bool>();
        spec.bert.strip_accents = b[2].cast<bool>();
        spec.bert.lowercase = b[3].cast<bool>();
    }
    spec.unk_id = unk_id < 0 ? -1 : checked_id(py::int_(unk_id), "unk_id");
    return PipelineCore(std::make_unique<codetok::WordPiecePipeline>(
        wp.kernel(), spec, added_matcher(raw, cps_of(whitespace))));
}

// --------------------------------------------------------------------------- Unigram
class UnigramCore {
  public:
    UnigramCore(const py::list& pieces, const py::list& scores, long long unk_id,
                double unk_score) {
        if (pieces.size() != scores.size()) throw py::value_error("pieces and scores differ in length");
        if (pieces.size() > static_cast<size_t>(INT32_MAX)) throw py::value_error("too many pieces");
        if (unk_id < -1 || unk_id >= static_cast<long long>(pieces.size()))
            throw py::value_error("unk_id must be -1 or an index into pieces");
        kernel_ = std::make_unique<codetok::UnigramKernel>(static_cast<int32_t>(unk_id), unk_score);
        std::vector<Cp> buf;
        for (size_t i = 0; i < pieces.size(); ++i) {
            buf.clear();
            append_cps(pieces[i].ptr(), buf);
            PyObject* score = PyList_GET_ITEM(scores.ptr(), static_cast<Py_ssize_t>(i));
            if (!PyFloat_Check(score) && !PyLong_Check(score))
                throw py::type_error("scores must be floats");
            const double value = PyFloat_AsDouble(score);
            if (value == -1.0 && PyErr_Occurred()) throw py::error_already_set();
            kernel_->add_piece(buf.data(), buf.size(), static_cast<int32_t>(i), value);
        }
    }

    py::object viterbi(const py::str& piece) const {
        py::list one;
        one.append(piece);
        return viterbi_batch(one)[0];
    }

    py::list viterbi_batch(const py::handle& pieces) const {
        Flat f = flatten(pieces);
        std::vector<int64_t> starts;
        std::vector<int32_t> ids;
        std::vector<int64_t> counts(f.size());  // -1: an unknown node is needed, none exists
        {
            py::gil_scoped_release nogil;
            for (size_t k = 0; k < f.size(); ++k) {
                const size_t before = ids.size();
                const bool ok = kernel_->viterbi(f.at(k), f.len(k), starts, ids);
                counts[k] = ok ? static_cast<int64_t>(ids.size() - before) : -1;
            }
        }
        py::list result(f.size());
        size_t t = 0;
        for (size_t k = 0; k < f.size(); ++k) {
            if (counts[k] < 0) {
                Py_INCREF(Py_None);
                PyList_SET_ITEM(result.ptr(), k, Py_None);
                continue;
            }
            const size_t c = static_cast<size_t>(counts[k]);
            py::list st(c);
            for (size_t j = 0; j < c; ++j)
                PyList_SET_ITEM(st.ptr(), j, PyLong_FromLongLong(starts[t + j]));
            py::list id = int_list(ids.data() + t, c);
            t += c;
            PyList_SET_ITEM(result.ptr(), k, py::make_tuple(st, id).release().ptr());
        }
        return result;
    }

  private:
    std::unique_ptr<codetok::UnigramKernel> kernel_;
};

}  // namespace

void bind_pretokenize(py::module_& m);  // bind_pretokenize.cpp
void bind_normalize(py::module_& m);    // bind_normalize.cpp

PYBIND11_MODULE(_core, m) {
    m.doc() = "codetok native kernels (private; see codetok/_reference for the readable twins)";
    py::class_<BpeCore>(m, "BpeCore")
        .def(py::init<const py::dict&, const py::handle&, const py::list&, const py::handle&,
                      const py::str&, const py::str&, long long, bool, bool, bool>(),
             py::arg("vocab"), py::arg("merges"), py::arg("values"), py::arg("token_type"),
             py::kw_only(), py::arg("prefix"), py::arg("suffix"), py::arg("unk_id"),
             py::arg("fuse_unk"), py::arg("byte_fallback"), py::arg("ignore_merges"))
        .def(py::init<const py::buffer&, const py::buffer&, const py::buffer&, const py::handle&,
                      const py::handle&, const py::str&, const py::str&, long long, bool, bool,
                      bool, const py::object&>(),
             py::arg("utf8"), py::arg("offsets"), py::arg("present"), py::arg("merges"),
             py::arg("token_type"), py::kw_only(), py::arg("prefix"), py::arg("suffix"),
             py::arg("unk_id"), py::arg("fuse_unk"), py::arg("byte_fallback"),
             py::arg("ignore_merges"), py::arg("tables") = py::none())
        .def("tables", &BpeCore::tables)
        .def("tokens", &BpeCore::tokens, py::arg("ids"))
        .def("strings", &BpeCore::strings)
        .def("symbol_ids", &BpeCore::symbol_ids, py::arg("chars"))
        .def("encode", &BpeCore::encode, py::arg("piece"))
        .def("encode_batch", &BpeCore::encode_batch, py::arg("pieces"))
        .def("tokenize_batch", &BpeCore::tokenize_batch, py::arg("pieces"))
        .def("encode_offsets", &BpeCore::encode_offsets, py::arg("pieces"), py::arg("anchors"),
             py::arg("word_start"), py::arg("word_step"));
    py::class_<PipelineCore>(m, "Pipeline")
        .def(py::init<const BpeCore&, int, bool, const py::list&, const py::list&,
                      const py::list&, const py::str&, bool, bool, int, const py::str&, bool>(),
             py::arg("bpe"), py::arg("scanner"), py::arg("add_prefix_space"),
             py::arg("byte_symbols"), py::arg("raw_added"), py::arg("norm_added"),
             py::arg("whitespace"), py::arg("trims"), py::arg("spm") = false,
             py::arg("prepend") = 0, py::arg("meta") = "\u2581", py::arg("spm_words") = false)
        .def("encode", &PipelineCore::encode, py::arg("text"), py::arg("skip"),
             py::arg("trim"))
        .def("encode_ids", &PipelineCore::encode_ids, py::arg("text"), py::arg("skip"))
        .def("encode_batch", &PipelineCore::encode_batch, py::arg("texts"), py::arg("skip"),
             py::arg("trim"), py::arg("threads"))
        .def("encode_ids_batch", &PipelineCore::encode_ids_batch, py::arg("texts"),
             py::arg("skip"), py::arg("threads"))
        .def("encode_flat", &PipelineCore::encode_flat, py::arg("texts"), py::arg("skip"),
             py::arg("threads"));
    bind_pretokenize(m);
    bind_normalize(m);
    m.def("merge_table", &merge_table, py::arg("vocab"), py::arg("merges"));
    m.def("rank_merges", &rank_merges, py::arg("ranks"));
    m.def("read_ranks", &read_ranks, py::arg("raw"));
    m.def("checksum", &checksum, py::arg("data"));
    m.attr("TABLE_LAYOUT") = codetok::kTableLayout;
    m.attr("PY_SPACE") = [] {
        std::vector<Cp> out;
        for (Cp c = 0; c < 0x110000; ++c)
            if (codetok::py_isspace(c)) out.push_back(c);
        return py::reinterpret_steal<py::str>(PyUnicode_FromKindAndData(
            PyUnicode_4BYTE_KIND, out.data(), static_cast<py::ssize_t>(out.size())));
    }();
    py::class_<WordPieceCore>(m, "WordPieceCore")
        .def(py::init<const py::dict&, const py::handle&, const py::str&, long long>(),
             py::arg("vocab"), py::arg("token_type"), py::kw_only(), py::arg("prefix"),
             py::arg("max_input_chars_per_word"))
        .def("tokenize_batch", &WordPieceCore::tokenize_batch, py::arg("pieces"))
        .def("encode_offsets", &WordPieceCore::encode_offsets, py::arg("pieces"),
             py::arg("anchors"), py::arg("word_start"), py::arg("word_step"), py::arg("unk_id"),
             py::arg("unk_token"));
    m.def("WordPiecePipeline", &wordpiece_pipeline, py::arg("wordpiece"), py::arg("bert"),
          py::arg("unk_id"), py::arg("raw_added"), py::arg("whitespace"));
    py::class_<UnigramCore>(m, "UnigramCore")
        .def(py::init<const py::list&, const py::list&, long long, double>(), py::arg("pieces"),
             py::arg("scores"), py::kw_only(), py::arg("unk_id"), py::arg("unk_score"))
        .def("viterbi", &UnigramCore::viterbi, py::arg("piece"))
        .def("viterbi_batch", &UnigramCore::viterbi_batch, py::arg("pieces"));
}
