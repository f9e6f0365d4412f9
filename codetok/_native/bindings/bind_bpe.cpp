// Python binding of the BPE model (bpe.hpp): ``_core.BpeCore`` (bind_bpe.hpp), and the
// loaders' native helpers ``_core.merge_table`` (HF merges), ``_core.rank_merges`` and
// ``_core.read_ranks`` (tiktoken ranks) and ``_core.checksum`` (the binary format).
#include "bindings/bind_bpe.hpp"

#include "kernels/checksum.hpp"
#include "kernels/tiktoken_ranks.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace codetok {
namespace bind {
BpeCore::BpeCore(const py::dict& vocab, const py::handle& merges, const py::list& values,
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

BpeCore::BpeCore(const py::buffer& utf8, const py::buffer& offsets, const py::buffer& present,
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
    // Saved tables are used as they are: every id in them must name a token of this file,
    // or a damaged file whose checksum was written again would encode to ids outside the
    // vocabulary (Reference: none; the reference kernel builds its own tables).
    {
        const auto* ps = static_cast<const PSlot*>(pairs.ptr);
        const auto* ws = static_cast<const WSlot*>(words.ptr);
        const auto known = [&](uint64_t id) { return id < n && pres[id] != 0; };
        for (size_t i = 0, np = bytes_of(pairs) / sizeof(PSlot); i < np; ++i) {
            const PSlot& sl = ps[i];
            if (sl.key == codetok::PairMap::kEmpty) continue;
            if (!known(sl.key >> 32) || !known(sl.key & 0xFFFFFFFFu) || sl.merge.new_id < 0 ||
                !known(static_cast<uint64_t>(sl.merge.new_id)))
                throw py::value_error("saved merge table names ids that are not tokens of the file");
        }
        for (size_t i = 0, nw = bytes_of(words) / sizeof(WSlot); i < nw; ++i) {
            if (ws[i].used && (ws[i].entry.value < 0 || !known(static_cast<uint64_t>(ws[i].entry.value))))
                throw py::value_error("saved token table names ids that are not tokens of the file");
        }
    }
    tables_ = tables;  // keep the memory alive
    if (!kernel_->borrow_tables(static_cast<const PSlot*>(pairs.ptr), bytes_of(pairs) / sizeof(PSlot),
                                static_cast<const WSlot*>(words.ptr), bytes_of(words) / sizeof(WSlot),
                                static_cast<const Cp*>(keys.ptr), bytes_of(keys) / sizeof(Cp)))
        throw py::value_error("saved tables are inconsistent");
}

py::tuple BpeCore::tables() const {
    const auto& pm = kernel_->merge_map();
    const auto& wm = kernel_->whole_map();
    auto raw = [](const void* p, size_t n) {
        return py::bytes(static_cast<const char*>(p), static_cast<py::ssize_t>(n));
    };
    return py::make_tuple(raw(pm.slots(), pm.capacity() * sizeof(codetok::PairMap::Slot)),
                          raw(wm.slots(), wm.capacity() * sizeof(codetok::StrMap::Slot)),
                          raw(wm.keys(), wm.n_keys() * sizeof(Cp)), codetok::kTableLayout);
}

py::list BpeCore::tokens(const py::handle& ids) const {
    auto a = py::array_t<int32_t, py::array::c_style | py::array::forcecast>::ensure(ids);
    if (!a) throw py::type_error("ids must be an int32 array");
    const int32_t* p = a.data();
    py::list out(static_cast<size_t>(a.size()));
    for (py::ssize_t i = 0; i < a.size(); ++i)
        PyList_SET_ITEM(out.ptr(), i, table().str(p[i]).release().ptr());
    return out;
}

py::list BpeCore::strings() const {
    const TokenTable& tt = table();
    py::list out(tt.size());
    for (size_t i = 0; i < tt.size(); ++i)
        PyList_SET_ITEM(out.ptr(), i, tt.str(static_cast<int32_t>(i)).release().ptr());
    return out;
}

py::list BpeCore::symbol_ids(const py::str& chars) const {
    std::vector<Cp> cps = cps_of(chars);
    py::list out(cps.size());
    for (size_t i = 0; i < cps.size(); ++i)
        PyList_SET_ITEM(out.ptr(), i, PyLong_FromLong(kernel_->symbol_id(cps[i])));
    return out;
}

void BpeCore::decode_store() const {
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

void BpeCore::add_merges(const py::handle& merges) {
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

namespace {

py::tuple ids_and_spans(const codetok::BpeOutput& out) {
    py::list spans(out.ids.size());
    for (size_t i = 0; i < out.ids.size(); ++i)
        PyList_SET_ITEM(spans.ptr(), i,
                        py::make_tuple(out.spans[2 * i], out.spans[2 * i + 1]).release().ptr());
    return py::make_tuple(int_list(out.ids.data(), out.ids.size()), spans);
}

}  // namespace

py::tuple BpeCore::sample(const py::str& piece, double dropout,
                          const std::shared_ptr<codetok::SharedRandom>& rng) const {
    if (!rng) throw py::value_error("sample needs a SharedRandom");
    std::vector<Cp> cps = cps_of(piece);
    codetok::BpeOutput out;
    {
        py::gil_scoped_release nogil;
        std::lock_guard<std::mutex> lock(rng->mutex);
        kernel_->encode(cps.data(), cps.size(), dropout, rng->random, out);
    }
    return ids_and_spans(out);
}

py::tuple BpeCore::encode(const py::str& piece) const {
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

py::list BpeCore::encode_batch(const py::handle& pieces) const {
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

py::list BpeCore::tokenize_batch(const py::handle& pieces) const {
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

py::object BpeCore::encode_offsets(const py::handle& pieces, const py::handle& anchors,
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

std::vector<size_t> BpeCore::encode_all(const Flat& f, codetok::BpeOutput& out) const {
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

namespace {

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

// tiktoken mergeable ranks -> merge rows (left, right, rank of the concatenation, same),
// as kernels/tiktoken_ranks.hpp orders them. Twin of ``merges_from_ranks``.
py::array_t<int32_t> rank_merges(const py::dict& ranks) {
    std::vector<std::pair<std::string, int32_t>> tokens;
    tokens.reserve(ranks.size());
    for (auto item : ranks) {
        if (!PyBytes_Check(item.first.ptr())) throw py::type_error("ranks maps bytes to ints");
        tokens.emplace_back(std::string(PyBytes_AS_STRING(item.first.ptr()),
                                        static_cast<size_t>(PyBytes_GET_SIZE(item.first.ptr()))),
                            checked_id(item.second, "rank"));
    }
    std::vector<std::array<int32_t, 3>> rows;
    {
        py::gil_scoped_release nogil;
        rows = codetok::rank_merges(tokens);
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
// the error exactly).
py::object read_ranks(const py::bytes& raw) {
    char* data = nullptr;
    py::ssize_t size = 0;
    if (PyBytes_AsStringAndSize(raw.ptr(), &data, &size) < 0) throw py::error_already_set();
    std::vector<codetok::RankedToken> rows;
    const long long bad = codetok::read_ranks(data, static_cast<size_t>(size), rows);
    if (bad) return py::int_(bad);
    py::dict out;
    for (const auto& [tok, rank] : rows) out[py::bytes(tok)] = py::int_(rank);
    return out;
}

// The binary format's checksum (kernels/checksum.hpp); the length must be a multiple of 8.
uint64_t checksum(const py::buffer& data) {
    py::buffer_info b = data.request();
    const size_t n = static_cast<size_t>(b.size * b.itemsize);
    if (n % 8) throw py::value_error("the checksummed data must be a multiple of 8 bytes");
    py::gil_scoped_release nogil;
    return codetok::checksum(static_cast<const unsigned char*>(b.ptr), n / 8);
}

}  // namespace
}  // namespace bind
}  // namespace codetok

void bind_bpe(py::module_& m) {
    using codetok::bind::BpeCore;
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
        .def("sample", &BpeCore::sample, py::arg("piece"), py::arg("dropout"), py::arg("rng"))
        .def("encode_batch", &BpeCore::encode_batch, py::arg("pieces"))
        .def("tokenize_batch", &BpeCore::tokenize_batch, py::arg("pieces"))
        .def("encode_offsets", &BpeCore::encode_offsets, py::arg("pieces"), py::arg("anchors"),
             py::arg("word_start"), py::arg("word_step"));
    m.def("merge_table", &codetok::bind::merge_table, py::arg("vocab"), py::arg("merges"));
    m.def("rank_merges", &codetok::bind::rank_merges, py::arg("ranks"));
    m.def("read_ranks", &codetok::bind::read_ranks, py::arg("raw"));
    m.def("checksum", &codetok::bind::checksum, py::arg("data"));
}
