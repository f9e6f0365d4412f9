// Python binding of the code router (code_router.hpp): ``_core.CodeRouter``, built by
// codetok/code/routing/native.py from a CodeTokenizer's channels and router options.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <chrono>
#include <string>
#include <vector>

#include "bindings/bind_bpe.hpp"
#include "bindings/bind_common.hpp"
#include "code/code_columns.hpp"
#include "code/code_encoder.hpp"
#include "code/code_lexer.hpp"
#include "code/code_router.hpp"
#include "code/doc_sections.hpp"

namespace codetok {
namespace bind {
namespace {

using codetok::code::ChannelSpec;
using codetok::code::CodeRouter;
using codetok::code::RouterSpec;

std::vector<std::string> strings_of(const py::handle& seq) {
    std::vector<std::string> out;
    for (py::handle s : seq) out.push_back(py::cast<std::string>(s));
    return out;
}

// ``(bpe_core, offset, unk_id, byte_ids, byte_chars, token_bytes)``: see ChannelSpec; None:
// no model (the router only counts pieces).
ChannelSpec channel_of(const py::object& spec) {
    if (spec.is_none()) return ChannelSpec{};  // a router that only counts
    const py::tuple t = spec.cast<py::tuple>();
    if (t.size() != 6) throw py::value_error("a channel is a 6-tuple");
    ChannelSpec c;
    c.kernel = t[0].cast<const BpeCore&>().kernel();
    c.offset = t[1].cast<int32_t>();
    c.unk_id = t[2].cast<int32_t>();
    const py::list byte_ids = t[3].cast<py::list>();
    const std::vector<Cp> chars = cps_of(t[4]);
    if (byte_ids.size() != 256 || chars.size() != 256)
        throw py::value_error("a channel needs 256 byte ids and 256 byte chars");
    for (size_t b = 0; b < 256; ++b) {
        c.byte_ids[b] = byte_ids[b].cast<int32_t>();
        if (c.byte_ids[b] < 0) throw py::value_error("a channel needs a token for every byte");
        c.byte_char[b] = chars[b];
    }
    c.bytes_off.push_back(0);
    for (py::handle tb : t[5]) {
        c.bytes_blob += py::cast<std::string>(tb);
        c.bytes_off.push_back(static_cast<uint32_t>(c.bytes_blob.size()));
    }
    return c;
}

RouterSpec spec_of(const py::dict& d) {
    RouterSpec s;
    const int digits = d["digits"].cast<int>();
    if (digits < 0 || digits > 2) throw py::value_error("digits must be 0, 1 or 2");
    s.digits = static_cast<codetok::code::Digits>(digits);
    const long long cap = d["max_piece"].cast<long long>();
    if (cap < 1) throw py::value_error("max_piece must be positive");
    s.cap = static_cast<size_t>(cap);
    s.lengths = d["lengths"].cast<std::vector<int64_t>>();
    s.lossless = d["lossless"].cast<bool>();
    s.split_identifiers = d["split_identifiers"].cast<bool>();
    s.comment_markers = d["comment_markers"].cast<bool>();
    s.drop_comments = d["drop_comments"].cast<bool>();
    s.drop_docstrings = d["drop_docstrings"].cast<bool>();
    s.fold_whitespace = d["fold_whitespace"].cast<bool>();
    s.join_punctuation = d["join_punctuation"].cast<bool>();
    s.fold_blank_lines = d["fold_blank_lines"].cast<bool>();
    s.indent = d["indent"].cast<int32_t>();
    s.dedent = d["dedent"].cast<int32_t>();
    s.comment_open = d["comment_open"].cast<int32_t>();
    s.comment_close = d["comment_close"].cast<int32_t>();
    s.doc_open = d["doc_open"].cast<int32_t>();
    s.doc_close = d["doc_close"].cast<int32_t>();
    s.nl = d["nl"].cast<int32_t>();
    s.crlf = d["crlf"].cast<int32_t>();
    s.cr = d["cr"].cast<int32_t>();
    for (auto item : d["keywords"].cast<py::dict>()) {
        const std::vector<Cp> kw = cps_of(item.first);
        s.keywords.emplace(std::u32string(kw.begin(), kw.end()), item.second.cast<int32_t>());
    }
    return s;
}

// The Python splitter of non-ASCII identifiers: ``fn(name) -> piece lengths`` (called
// without the GIL: the router releases it).
bool python_split(void* ctx, const Cp* s, size_t n, std::vector<uint32_t>& lens) {
    py::gil_scoped_acquire gil;
    PyObject* name = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, s, static_cast<Py_ssize_t>(n));
    if (name == nullptr) return false;
    PyObject* got = PyObject_CallOneArg(static_cast<PyObject*>(ctx), name);
    Py_DECREF(name);
    if (got == nullptr) return false;
    size_t total = 0;
    bool ok = true;
    try {
        for (py::handle v : py::reinterpret_steal<py::object>(got)) {
            const long long k = v.cast<long long>();
            if (k < 1) throw py::value_error("identifier pieces must not be empty");
            lens.push_back(static_cast<uint32_t>(k));
            total += static_cast<size_t>(k);
        }
        if (total != n) throw py::value_error("identifier pieces must tile the identifier");
    } catch (py::error_already_set& e) {
        e.restore();
        ok = false;
    } catch (py::builtin_exception& e) {
        e.set_error();
        ok = false;
    }
    return ok;
}

template <class T>
const T* column(const py::array_t<T, py::array::c_style | py::array::forcecast>& a, size_t n,
                const char* what) {
    if (a.ndim() != 1 || static_cast<size_t>(a.shape(0)) != n)
        throw py::value_error(std::string(what) + " must be 1-d with one entry per item");
    return a.data();
}

template <class T>
using Column = py::array_t<T, py::array::c_style | py::array::forcecast>;

// Route one file's lexemes with ``router`` into ``out`` (encoded, or counted when
// ``out.count`` is set), the GIL released while it runs.
void route_file(const CodeRouter& router, const py::str& text, bool from_bytes,
                const Column<uint8_t>& kinds, const Column<int64_t>& starts,
                const Column<int64_t>& ends, const Column<int64_t>& doc_lex,
                const Column<int64_t>& doc_off, const Column<int32_t>& doc_id,
                const py::object& split, codetok::code::CodeRouted& out) {
    const size_t count = static_cast<size_t>(kinds.size());
    codetok::code::LexemeView lx{column(kinds, count, "kinds"), column(starts, count, "starts"),
                                 column(ends, count, "ends"), count};
    const size_t n_cuts = static_cast<size_t>(doc_lex.size());
    codetok::code::DocCuts cuts{column(doc_lex, n_cuts, "doc_lex"),
                                column(doc_off, n_cuts, "doc_off"),
                                column(doc_id, n_cuts, "doc_id"), n_cuts};
    const StrView v = str_view(text.ptr());
    for (size_t i = 0; i < count; ++i)
        if (lx.starts[i] < 0 || lx.ends[i] < lx.starts[i] || static_cast<size_t>(lx.ends[i]) > v.n)
            throw py::value_error("lexeme spans must lie inside the text");
    bool ok = true;
    {
        py::gil_scoped_release nogil;  // ``text`` and the arrays stay alive: the caller's
        with_units(v, [&](auto* t, size_t n) {
            ok = router.run(t, n, from_bytes, lx, cuts, python_split, split.ptr(), out);
        });
    }
    if (!ok) throw py::error_already_set();
}

// The blocks of ``c`` as one new ``int64`` array (each block freed once copied).
template <class T>
py::array_t<int64_t> chunked_to_array(codetok::Chunked<T>& c) {
    py::array_t<int64_t> a(static_cast<py::ssize_t>(c.size()));
    c.move_to(a.mutable_data());
    return a;
}

py::object run_router(const CodeRouter& router, const py::str& text, bool from_bytes,
                      const Column<uint8_t>& kinds, const Column<int64_t>& starts,
                      const Column<int64_t>& ends, const Column<int64_t>& doc_lex,
                      const Column<int64_t>& doc_off, const Column<int32_t>& doc_id,
                      const py::object& split, bool lean) {
    codetok::code::CodeRouted out;
    out.lean = lean;
    route_file(router, text, from_bytes, kinds, starts, ends, doc_lex, doc_off, doc_id, split,
               out);
    if (lean) {
        py::array_t<int64_t> ids = chunked_to_array(out.lean_ids);
        return py::make_tuple(ids, chunked_to_array(out.lean_lex));
    }
    const size_t units = out.unit_start.size(), tokens = out.ids.size();
    return py::make_tuple(
        move_to_array(std::move(out.ids), tokens, 1), move_to_array(std::move(out.tok_unit), tokens, 1),
        move_to_array(std::move(out.unit_start), units, 1),
        move_to_array(std::move(out.unit_end), units, 1),
        move_to_array(std::move(out.unit_lex), units, 1),
        move_to_array(std::move(out.tok_lex), tokens, 1),
        move_to_array(std::move(out.byte_spans), tokens, 2),
        move_to_array(std::move(out.char_spans), tokens, 2),
        move_to_array(std::move(out.lines), tokens, 1));
}

std::vector<codetok::code::DocSections::Word> words_of(const py::handle& pairs) {
    std::vector<codetok::code::DocSections::Word> out;
    for (const py::handle item : pairs) {
        const py::tuple pair = py::reinterpret_borrow<py::tuple>(item);
        out.emplace_back(pair[0].cast<std::string>(), pair[1].cast<int32_t>());
    }
    return out;
}

// The section headers of the docstring lexemes ``lexemes`` (spans ``starts``/``ends`` of
// ``text``): (lexeme, offset in it, section code) arrays in order, and the lexemes that are
// not ASCII (for the Python scanner).
py::tuple find_doc_sections(const codetok::code::DocSections& scanner, const py::str& text,
                            const Column<int64_t>& lexemes, const Column<int64_t>& starts,
                            const Column<int64_t>& ends) {
    const StrView v = str_view(text.ptr());
    const size_t count = static_cast<size_t>(lexemes.size());
    const int64_t* idx = column(lexemes, count, "lexemes");
    const int64_t* s = starts.data();
    const int64_t* e = ends.data();
    const auto total = static_cast<int64_t>(starts.size());
    if (ends.size() != starts.size()) throw py::value_error("starts and ends differ in length");
    for (size_t k = 0; k < count; ++k) {
        const int64_t i = idx[k];
        if (i < 0 || i >= total || s[i] < 0 || e[i] < s[i] || static_cast<size_t>(e[i]) > v.n)
            throw py::value_error("docstring spans must lie inside the text");
    }
    std::vector<int64_t> lex, off, fallback;
    std::vector<int32_t> code;
    {
        py::gil_scoped_release nogil;  // ``text`` and the arrays stay alive: the caller's
        std::string scratch;
        std::vector<std::pair<int64_t, int32_t>> found;
        with_units(v, [&](auto* t, size_t) {
            for (size_t k = 0; k < count; ++k) {
                const int64_t i = idx[k];
                found.clear();
                if (!scanner.find(t + s[i], static_cast<size_t>(e[i] - s[i]), scratch, found)) {
                    fallback.push_back(i);
                    continue;
                }
                for (const auto& [at, c] : found) {
                    lex.push_back(i);
                    off.push_back(at);
                    code.push_back(c);
                }
            }
        });
    }
    const size_t n = lex.size(), m = fallback.size();
    return py::make_tuple(move_to_array(std::move(lex), n, 1), move_to_array(std::move(off), n, 1),
                          move_to_array(std::move(code), n, 1),
                          move_to_array(std::move(fallback), m, 1));
}

// The pieces of many files, counted by a router (the code trainers' corpus pass): code
// and comment pieces apart, or together.
class CodeCounts {
  public:
    explicit CodeCounts(bool separate) : separate_(separate) {}

    // Route one file's lexemes (as ``run_router``) and count its pieces.
    void add(const CodeRouter& router, const py::str& text, bool from_bytes,
             const Column<uint8_t>& kinds, const Column<int64_t>& starts,
             const Column<int64_t>& ends, const Column<int64_t>& doc_lex,
             const Column<int64_t>& doc_off, const Column<int32_t>& doc_id,
             const py::object& split) {
        codetok::code::CodeRouted out;
        out.count = {&code_, separate_ ? &comment_ : &code_};
        route_file(router, text, from_bytes, kinds, starts, ends, doc_lex, doc_off, doc_id,
                   split, out);
    }

    // ``(code counts, comment counts)`` as dicts (the comment dict is empty unless the
    // counts are separate).
    py::tuple counts() const { return py::make_tuple(counts_dict(code_), counts_dict(comment_)); }

  private:
    bool separate_;
    codetok::PieceCounts code_, comment_;
};

#ifdef CODETOK_TREE_SITTER
using codetok::code::WalkTables;

// ``(roles, type_index, doc_body, doc_parents, comment_named, statement, doc_string)``:
// per kind id (see WalkTables); ``doc_body`` None: the grammar has no docstring rule.
WalkTables walk_tables(const py::tuple& t) {
    if (t.size() != 7) throw py::value_error("walk tables are a 7-tuple");
    WalkTables g;
    g.roles = t[0].cast<std::vector<uint8_t>>();
    g.type_index = t[1].cast<std::vector<uint16_t>>();
    const size_t n = g.roles.size();
    if (n < 2 || g.type_index.size() != n) throw py::value_error("roles and type_index differ");
    g.docstrings = !t[2].is_none();
    if (g.docstrings) {
        g.doc_body = t[2].cast<std::vector<uint8_t>>();
        g.doc_parents = t[3].cast<std::vector<std::vector<uint16_t>>>();
    } else {
        g.doc_body.assign(n, 0);
        g.doc_parents.assign(n, {});
    }
    g.comment_named = t[4].cast<std::vector<uint8_t>>();
    g.statement = t[5].cast<std::vector<uint8_t>>();
    g.doc_string = t[6].cast<std::vector<uint8_t>>();
    for (const auto* v : {&g.doc_body, &g.comment_named, &g.statement, &g.doc_string})
        if (v->size() != n) throw py::value_error("every walk table needs one entry per kind id");
    if (g.doc_parents.size() != n) throw py::value_error("doc_parents needs one entry per kind id");
    return g;
}

// What one parse reads: a grammar package's language (its capsule) and the source bytes,
// of which the parser gets ``data[base:]`` (at most 4 GiB).
struct ParseInput {
    const TSLanguage* language;
    const char* data;
    size_t size;
};

ParseInput parse_input(const py::capsule& language, const py::bytes& data, size_t base) {
    const auto* lang = static_cast<const TSLanguage*>(
        PyCapsule_GetPointer(language.ptr(), "tree_sitter.Language"));
    if (lang == nullptr) throw py::error_already_set();
    char* buf = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_AsStringAndSize(data.ptr(), &buf, &size) < 0) throw py::error_already_set();
    const size_t total = static_cast<size_t>(size);
    if (base > total) throw py::value_error("base lies past the data");
    if (total - base > UINT32_MAX) throw py::value_error("source over 4 GiB");
    return ParseInput{lang, buf, total};
}

constexpr const char* kNoParse = "tree-sitter could not parse with this language (ABI version)";

// ``_core.ParseStopped(reason, offset, seconds, peak_bytes)``: a parse went past its budget
// (``reason`` "time" or "memory"); codetok/code/front/budget.py names the file and limit.
PyObject* g_parse_stopped = nullptr;

codetok::code::ParseLimits parse_limits(double seconds, uint64_t max_bytes) {
    if (!(seconds >= 0)) throw py::value_error("seconds must be >= 0 (0: no limit)");
    return codetok::code::ParseLimits{seconds, max_bytes};
}

// Raises what a parse that gave no tree means.
[[noreturn]] void parse_failed(const codetok::code::ParseReport& report) {
    using codetok::code::ParseStatus;
    if (report.status == ParseStatus::over_time || report.status == ParseStatus::over_memory) {
        py::tuple args = py::make_tuple(
            report.status == ParseStatus::over_time ? "time" : "memory", report.offset,
            report.seconds, report.peak_bytes);
        PyErr_SetObject(g_parse_stopped, args.ptr());
        throw py::error_already_set();
    }
    throw py::value_error(kNoParse);
}

// Parse and walk one file: ``(records (n, 6), blocks (m, 4), root kind id, root end byte,
// has_error)``; see code_lexer.hpp. A record is ``(start, end, kid, parent, flags, context
// sign)``, string runs merged: ``_merge_runs(_walk(...))`` in codetok/code/front/lexer.py.
py::tuple walk(const WalkTables& g, const py::capsule& language, const py::bytes& body,
               double seconds, uint64_t max_bytes) {
    const ParseInput in = parse_input(language, body, 0);
    const codetok::code::ParseLimits limits = parse_limits(seconds, max_bytes);
    codetok::code::WalkResult out;
    codetok::code::ParseReport report;
    bool ok;
    {
        py::gil_scoped_release nogil;
        ok = codetok::code::walk_source(in.language, in.data, static_cast<uint32_t>(in.size), g,
                                        limits, out, report);
    }
    if (!ok) parse_failed(report);
    std::vector<int64_t> records;
    const size_t m = out.records.size();
    records.reserve(6 * m);
    for (size_t i = 0; i < m; ++i) {
        const auto& r = out.records[i];
        const int64_t e = i + 1 < m ? int64_t{out.records[i + 1].s} : out.end;
        records.insert(records.end(), {int64_t{r.s}, e, int64_t{r.kid}, int64_t{r.par},
                                       int64_t{r.fl}, int64_t{r.ctx}});
    }
    return py::make_tuple(to_array(records, out.records.size(), 6),
                          to_array(out.blocks, out.blocks.size() / 4, 4), out.root_kid,
                          out.root_end, out.has_error);
}
using codetok::code::ColumnTables;
using codetok::code::DocPattern;

// The whole native lexer of one grammar: the walk's tables, the column tables and the
// Python functions of the rare questions (see code_columns.hpp).
struct LexPlan {
    WalkTables walk;
    ColumnTables columns;
    py::object text_kind, is_doc, blank;  // (bytes) -> int / bool / bool
};

// ``(leaf_kinds, by_parent, doc, doc_before, by_text, gaps)``: ``by_parent`` a dict
// ``(kid, parent type) -> kind``; ``doc``: None (no documentation comment patterns), or a
// list of ``(literal, forbidden)`` pairs, or True (patterns Python must answer);
// ``doc_before``: the type indices a comment right above documents; ``by_text`` a dict
// ``kid -> {spelling: kind}``; ``gaps`` a dict ``spelling -> kind``.
ColumnTables column_tables(const py::tuple& t, size_t kinds) {
    if (t.size() != 6) throw py::value_error("column tables are a 6-tuple");
    ColumnTables g;
    g.leaf_kinds = t[0].cast<std::vector<uint8_t>>();
    if (g.leaf_kinds.size() != kinds) throw py::value_error("leaf_kinds needs one entry per kind id");
    g.has_by_parent.assign(kinds, 0);
    for (auto item : t[1].cast<py::dict>()) {
        const auto key = item.first.cast<std::pair<int64_t, int64_t>>();
        if (key.first < 0 || static_cast<size_t>(key.first) >= kinds || key.second < 0 ||
            key.second > 0xFFFF)
            throw py::value_error("by_parent keys are (kind id, parent type index)");
        g.by_parent[static_cast<uint32_t>(key.first << 16 | key.second)] = item.second.cast<uint8_t>();
        g.has_by_parent[key.first] = 1;
    }
    if (!t[2].is_none()) {
        g.comment_doc = true;
        if (!py::isinstance<py::bool_>(t[2])) {
            g.doc_patterns_native = true;
            for (py::handle p : t[2]) {
                const auto pair = p.cast<std::pair<std::string, std::string>>();
                g.doc_patterns.push_back(DocPattern{pair.first, pair.second});
            }
        }
    }
    for (py::handle h : t[3]) {
        const auto type = h.cast<int64_t>();
        if (type < 0 || type > 0xFFFF) throw py::value_error("doc_before holds type indices");
        if (g.doc_owner.size() <= static_cast<size_t>(type)) g.doc_owner.resize(type + 1, 0);
        g.doc_owner[type] = 1;
    }
    g.has_by_text.assign(kinds, 0);
    for (auto item : t[4].cast<py::dict>()) {
        const auto kid = item.first.cast<int64_t>();
        if (kid < 0 || static_cast<size_t>(kid) >= kinds)
            throw py::value_error("by_text keys are kind ids");
        auto& table = g.by_text[static_cast<uint32_t>(kid)];
        for (auto spelled : item.second.cast<py::dict>())
            table[spelled.first.cast<std::string>()] = spelled.second.cast<uint8_t>();
        g.has_by_text[kid] = 1;
    }
    for (auto item : t[5].cast<py::dict>())
        g.gap_kinds[item.first.cast<std::string>()] = item.second.cast<uint8_t>();
    return g;
}

// A Python answer for the columns: ``fn(bytes)`` as an int (-1: it raised).
int ask(void* ctx, py::object LexPlan::*fn, const char* s, size_t n) {
    py::gil_scoped_acquire gil;
    try {
        py::object got = (static_cast<LexPlan*>(ctx)->*fn)(py::bytes(s, n));
        return py::int_(got).cast<int>();
    } catch (py::error_already_set& e) {
        e.restore();
    } catch (py::builtin_exception& e) {  // an answer that is no int
        e.set_error();
    }
    return -1;
}

int ask_text_kind(void* ctx, const char* s, size_t n) { return ask(ctx, &LexPlan::text_kind, s, n); }
int ask_is_doc(void* ctx, const char* s, size_t n) { return ask(ctx, &LexPlan::is_doc, s, n); }
int ask_blank(void* ctx, const char* s, size_t n) { return ask(ctx, &LexPlan::blank, s, n); }

// The 10 lexeme columns (kinds, node_types, parent_types, byte starts, byte ends, char
// starts, char ends, lines, cols, flags) of ``c`` as arrays, taking its buffers; when the
// lexemes tile the source (always, see ``Lexemes.check``) the starts have n + 1 entries
// and the ends are None; lines and cols are None when ``c`` was built without them.
py::list column_list(codetok::code::LexColumns& c, size_t total_bytes, size_t total_chars) {
    const size_t n = c.kinds.size();
    py::object bs, be, cs, ce;
    if (c.tile(static_cast<int64_t>(total_bytes), static_cast<int64_t>(total_chars))) {
        bs = move_to_array(std::move(c.bs), n + 1, 1);
        cs = move_to_array(std::move(c.cs), n + 1, 1);
        be = ce = py::none();
    } else {
        bs = move_to_array(std::move(c.bs), n, 1);
        be = move_to_array(std::move(c.be), n, 1);
        cs = move_to_array(std::move(c.cs), n, 1);
        ce = move_to_array(std::move(c.ce), n, 1);
    }
    py::list out;
    out.append(move_to_array(std::move(c.kinds), n, 1));
    out.append(move_to_array(std::move(c.types), n, 1));
    out.append(move_to_array(std::move(c.parents), n, 1));
    for (const py::object& col : {bs, be, cs, ce}) out.append(col);
    if (c.with_lines) {
        out.append(move_to_array(std::move(c.lines), n, 1));
        out.append(move_to_array(std::move(c.cols), n, 1));
    } else {  // left to ``Lexemes.lines``
        out.append(py::none());
        out.append(py::none());
    }
    out.append(move_to_array(std::move(c.flags), n, 1));
    return out;
}

// Lex one file: parse ``data[base:]``, walk, build the columns. ``text``: the source as
// char spans index it. Returns the 10 columns (kinds, node_types, parent_types, byte
// starts, byte ends, char starts, char ends, lines, cols, flags) and has_error; when the
// lexemes tile the source (always, see ``Lexemes.check``) the starts have n + 1 entries and
// the ends are None.
py::tuple lex_file(LexPlan& plan, const py::capsule& language, const py::bytes& data,
                   size_t base, const py::str& text, bool from_bytes, double seconds,
                   uint64_t max_bytes) {
    const ParseInput in = parse_input(language, data, base);
    const codetok::code::ParseLimits limits = parse_limits(seconds, max_bytes);
    codetok::code::ParseReport report;
    const StrView v = str_view(text.ptr());
    codetok::code::TextView tv{v.kind, v.data, v.n, from_bytes};
    codetok::code::ColumnCallbacks cb{&plan, ask_text_kind, ask_is_doc, ask_blank};
    codetok::code::WalkResult walked;
    codetok::code::LexColumns c;
    bool parsed = false, built = false;
    {
        py::gil_scoped_release nogil;
        parsed = codetok::code::walk_source(in.language, in.data + base,
                                            static_cast<uint32_t>(in.size - base), plan.walk,
                                            limits, walked, report);
        if (parsed)
            built = codetok::code::build_columns(walked, plan.walk, plan.columns, in.data, in.size,
                                                 base, tv, cb, c);
    }
    if (!parsed) parse_failed(report);
    if (!built) throw py::error_already_set();
    const bool has_error = walked.has_error;
    walked = codetok::code::WalkResult();
    py::list out = column_list(c, in.size, v.n);
    out.append(py::bool_(has_error));
    return py::tuple(out);
}

// ``(section words...)`` headers of a docstring that is not ASCII, by the Python scanner
// ``fn(text) -> [(offset, reserved id), ...]`` (called without the GIL held).
bool python_sections(void* ctx, const Cp* s, size_t n,
                     std::vector<std::pair<int64_t, int32_t>>& out) {
    py::gil_scoped_acquire gil;
    PyObject* text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, s, static_cast<Py_ssize_t>(n));
    if (text == nullptr) return false;
    PyObject* got = PyObject_CallOneArg(static_cast<PyObject*>(ctx), text);
    Py_DECREF(text);
    if (got == nullptr) return false;
    try {
        for (py::handle item : py::reinterpret_steal<py::object>(got)) {
            const auto pair = item.cast<std::pair<int64_t, int32_t>>();
            if (pair.first < 0 || static_cast<size_t>(pair.first) > n)
                throw py::value_error("a section header must lie inside its docstring");
            out.push_back(pair);
        }
    } catch (py::error_already_set& e) {
        e.restore();
        return false;
    } catch (py::builtin_exception& e) {
        e.set_error();
        return false;
    }
    return true;
}

// One language's whole encode (code_encoder.hpp) and the Python objects it reads.
struct CodeEncoder {
    py::object plan_obj, language, router_obj, sections_obj, section_fallback, split;
    const TSLanguage* ts_language = nullptr;
    codetok::code::EncodePlan plan;
};

// A Python error taken from the thread it was raised in, for another to raise.
struct HeldError {
    PyObject *type = nullptr, *value = nullptr, *trace = nullptr;
};

// One file's job, its Python inputs checked (they stay alive: the caller's list holds them).
codetok::code::EncodeJob job_of(const py::handle& item) {
    const py::tuple t = py::reinterpret_borrow<py::tuple>(item);
    if (!py::isinstance<py::tuple>(item) || t.size() != 7)
        throw py::value_error("a file is (encoder, data, base, text, from_bytes, seconds, max_bytes)");
    const CodeEncoder& enc = t[0].cast<const CodeEncoder&>();
    const ParseInput in = parse_input(py::reinterpret_borrow<py::capsule>(enc.language),
                                      t[1].cast<py::bytes>(), t[2].cast<size_t>());
    const StrView v = str_view(t[3].ptr());
    codetok::code::EncodeJob job;
    job.plan = &enc.plan;
    job.language = in.language;
    job.data = in.data;
    job.size = in.size;
    job.base = t[2].cast<size_t>();
    job.text = codetok::code::TextView{v.kind, v.data, v.n, t[4].cast<bool>()};
    job.limits = parse_limits(t[5].cast<double>(), t[6].cast<uint64_t>());
    return job;
}

// What a file that was not encoded raises (not raised here).
py::object error_of(const codetok::code::EncodeOutput& out, HeldError& held) {
    using codetok::code::EncodeStatus;
    using codetok::code::ParseStatus;
    if (out.status == EncodeStatus::no_tree) {
        const auto& r = out.report;
        if (r.status == ParseStatus::over_time || r.status == ParseStatus::over_memory)
            return py::reinterpret_steal<py::object>(PyObject_CallFunction(
                g_parse_stopped, "sKdK", r.status == ParseStatus::over_time ? "time" : "memory",
                static_cast<unsigned long long>(r.offset), r.seconds,
                static_cast<unsigned long long>(r.peak_bytes)));
    }
    const auto raised = [](PyObject* type, const char* message) {
        PyObject* e = PyObject_CallFunction(type, "s", message);
        if (e == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(e);
    };
    if (out.status == EncodeStatus::no_tree) return raised(PyExc_ValueError, kNoParse);
    if (!out.error.empty()) return raised(PyExc_RuntimeError, out.error.c_str());
    if (held.type == nullptr) return raised(PyExc_RuntimeError, "a code encode callback failed");
    PyErr_NormalizeException(&held.type, &held.value, &held.trace);
    if (held.trace != nullptr) PyException_SetTraceback(held.value, held.trace);
    py::object value = py::reinterpret_steal<py::object>(held.value);
    Py_XDECREF(held.type);
    Py_XDECREF(held.trace);
    held = HeldError{};
    return value;
}

// Encode the files of ``files`` (see ``job_of``) on up to ``threads`` threads: per file, the
// 10 lexeme columns (as ``lex``), has_error, the ids and each id's lexeme (int64), or, for a
// file that failed, the exception it raises (None for a file skipped after one failed).
py::list encode_code_files(const py::list& files, size_t threads) {
    using codetok::code::EncodeStatus;
    std::vector<codetok::code::EncodeJob> jobs;
    jobs.reserve(files.size());
    for (py::handle f : files) jobs.push_back(job_of(f));
    const size_t count = jobs.size();
    std::vector<codetok::code::EncodeOutput> outs(count);
    std::vector<HeldError> held(count);
    {
        py::gil_scoped_release nogil;
        // Each worker thread holds an interpreter state for its whole run, so an error a
        // callback raises stays in it until ``failed`` takes it.
        thread_local PyGILState_STATE state;
        thread_local PyThreadState* saved = nullptr;
        codetok::code::encode_files(
            jobs.data(), count, threads, outs.data(),
            [] {
                state = PyGILState_Ensure();
                saved = PyEval_SaveThread();
            },
            [] {
                PyEval_RestoreThread(saved);
                PyGILState_Release(state);
            },
            [&held](size_t k) {
                py::gil_scoped_acquire gil;
                PyErr_Fetch(&held[k].type, &held[k].value, &held[k].trace);
            });
    }
    py::list result(count);
    for (size_t k = 0; k < count; ++k) {
        codetok::code::EncodeOutput& out = outs[k];
        if (out.status == EncodeStatus::skipped) {
            result[k] = py::none();
        } else if (out.status != EncodeStatus::ok) {
            result[k] = error_of(out, held[k]);
        } else {
            const StrView v = str_view(py::reinterpret_borrow<py::tuple>(files[k])[3].ptr());
            py::list cols = column_list(out.columns, jobs[k].size, v.n);
            cols.append(py::bool_(out.has_error));
            cols.append(chunked_to_array(out.routed.lean_ids));
            cols.append(chunked_to_array(out.routed.lean_lex));
            result[k] = py::tuple(cols);
        }
        out = codetok::code::EncodeOutput();
    }
    for (HeldError& h : held) {  // errors of files a later failure left unreported
        Py_XDECREF(h.type);
        Py_XDECREF(h.value);
        Py_XDECREF(h.trace);
    }
    return result;
}
#endif

}  // namespace

void bind_code(py::module_& m) {
#ifdef CODETOK_TREE_SITTER
    m.attr("TREE_SITTER_VERSION") = CODETOK_TREE_SITTER;
    py::class_<LexPlan>(m, "LexPlan")
        .def(py::init([](const py::tuple& walk, const py::tuple& columns, py::object text_kind,
                         py::object is_doc, py::object blank) {
                 auto plan = std::make_unique<LexPlan>();
                 plan->walk = walk_tables(walk);
                 plan->columns = column_tables(columns, plan->walk.roles.size());
                 plan->text_kind = std::move(text_kind);
                 plan->is_doc = std::move(is_doc);
                 plan->blank = std::move(blank);
                 return plan;
             }),
             py::arg("walk"), py::arg("columns"), py::arg("text_kind"), py::arg("is_doc"),
             py::arg("blank"))
        .def("walk", [](const LexPlan& plan, const py::capsule& language, const py::bytes& body,
                        double seconds, uint64_t max_bytes) {
                 return walk(plan.walk, language, body, seconds, max_bytes);
             }, py::arg("language"), py::arg("body"), py::arg("seconds") = 0.0,
             py::arg("max_bytes") = 0,
             "Parse (within ``seconds`` and ``max_bytes`` of parser memory; 0: no limit) and "
             "walk one file: (records, blocks, root kind id, root end, has_error).")
        .def("lex", &lex_file, py::arg("language"), py::arg("data"), py::arg("base"),
             py::arg("text"), py::arg("from_bytes"), py::arg("seconds") = 0.0,
             py::arg("max_bytes") = 0,
             "Lex one file (the parse within ``seconds`` and ``max_bytes`` of parser memory; "
             "0: no limit): the 10 lexeme columns and has_error; ParseStopped past a limit.");
    py::class_<CodeEncoder>(m, "CodeEncoder")
        .def(py::init([](py::object plan, py::object language, py::object router,
                         py::object sections, const std::vector<int32_t>& section_ids,
                         py::object section_fallback, py::object split) {
                 auto enc = std::make_unique<CodeEncoder>();
                 LexPlan& lp = plan.cast<LexPlan&>();
                 enc->ts_language = parse_input(language.cast<py::capsule>(), py::bytes(), 0).language;
                 codetok::code::EncodePlan& p = enc->plan;
                 p.walk = &lp.walk;
                 p.columns = &lp.columns;
                 p.callbacks = codetok::code::ColumnCallbacks{&lp, ask_text_kind, ask_is_doc, ask_blank};
                 p.router = &router.cast<const CodeRouter&>();
                 p.split = python_split;
                 p.split_ctx = split.ptr();
                 if (!sections.is_none()) {
                     p.sections = &sections.cast<const codetok::code::DocSections&>();
                     p.section_ids = section_ids;
                     if (!PyCallable_Check(section_fallback.ptr()))
                         throw py::type_error("section_fallback must be callable");
                     p.section_fallback = python_sections;
                     p.section_ctx = section_fallback.ptr();
                 }
                 enc->plan_obj = std::move(plan);
                 enc->language = std::move(language);
                 enc->router_obj = std::move(router);
                 enc->sections_obj = std::move(sections);
                 enc->section_fallback = std::move(section_fallback);
                 enc->split = std::move(split);
                 return enc;
             }),
             py::arg("plan"), py::arg("language"), py::arg("router"), py::arg("sections"),
             py::arg("section_ids"), py::arg("section_fallback"), py::arg("split"),
             "One language's whole encode: the lexer plan, the grammar's language capsule, "
             "the router, the docstring section scanner (None: no sections), the reserved "
             "id of each section code, the Python scanner of docstrings that are not ASCII "
             "and the Python splitter of identifiers that are not.");
    m.def("encode_code_files", &encode_code_files, py::arg("files"), py::arg("threads") = 1,
          "Encode files ``(encoder, data, base, text, from_bytes, seconds, max_bytes)`` on up "
          "to ``threads`` threads: per file the 10 lexeme columns, has_error, ids and each "
          "id's lexeme, or the exception a failed file raises (None: skipped after one).");
    m.def("error_bytes",
          [](const py::capsule& language, const py::bytes& data, double seconds,
             uint64_t max_bytes) {
              const ParseInput in = parse_input(language, data, 0);
              const codetok::code::ParseLimits limits = parse_limits(seconds, max_bytes);
              codetok::code::ParseReport report;
              uint64_t total = 0;
              bool ok;
              {
                  py::gil_scoped_release nogil;
                  ok = codetok::code::error_bytes(in.language, in.data,
                                                  static_cast<uint32_t>(in.size), limits, total,
                                                  report);
              }
              if (!ok) parse_failed(report);
              return total;
          },
          py::arg("language"), py::arg("data"), py::arg("seconds") = 0.0,
          py::arg("max_bytes") = 0,
          "Bytes inside ERROR nodes plus one per MISSING node of ``data`` (parsed within "
          "``seconds`` and ``max_bytes``; ParseStopped past them).");
    m.def("parse_report",
          [](const py::capsule& language, const py::bytes& data, double seconds,
             uint64_t max_bytes) {
              const ParseInput in = parse_input(language, data, 0);
              const codetok::code::ParseLimits limits = parse_limits(seconds, max_bytes);
              codetok::code::ParseReport report;
              {
                  py::gil_scoped_release nogil;
                  codetok::code::ParseArena arena;
                  codetok::code::ArenaScope scope(arena);
                  arena.parse(in.language, in.data, static_cast<uint32_t>(in.size), limits,
                              report);
              }
              static const char* names[] = {"ok", "no_language", "time", "memory"};
              return py::make_tuple(names[static_cast<int>(report.status)], report.seconds,
                                    report.peak_bytes, report.offset);
          },
          py::arg("language"), py::arg("data"), py::arg("seconds") = 0.0,
          py::arg("max_bytes") = 0,
          "Parse ``data`` alone, as the lexer does (within ``seconds`` and ``max_bytes``), "
          "and say how it went: (status, seconds, peak bytes of its arena, offset reached); "
          "status is 'ok', 'no_language', 'time' or 'memory'. For benchmarks and budgets.");
    m.def("walk_report",
          [](const py::capsule& language, const py::bytes& data) {
              const ParseInput in = parse_input(language, data, 0);
              codetok::code::ParseReport report;
              double walk_seconds = 0;
              uint64_t nodes = 0, checksum = 0;
              {
                  py::gil_scoped_release nogil;
                  codetok::code::ParseArena arena;
                  codetok::code::ArenaScope scope(arena);
                  TSTree* tree = arena.parse(in.language, in.data,
                                             static_cast<uint32_t>(in.size),
                                             codetok::code::ParseLimits{}, report);
                  if (tree != nullptr) {
                      const auto t0 = std::chrono::steady_clock::now();
                      TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
                      for (bool more = true; more;) {
                          const TSNode node = ts_tree_cursor_current_node(&c);
                          ++nodes;
                          checksum += ts_node_start_byte(node) + ts_node_end_byte(node) +
                                      ts_node_symbol(node);
                          if (ts_tree_cursor_goto_first_child(&c)) continue;
                          while (!ts_tree_cursor_goto_next_sibling(&c))
                              if (!ts_tree_cursor_goto_parent(&c)) {
                                  more = false;
                                  break;
                              }
                      }
                      ts_tree_cursor_delete(&c);
                      walk_seconds = std::chrono::duration<double>(
                                         std::chrono::steady_clock::now() - t0)
                                         .count();
                  }
              }
              if (report.status != codetok::code::ParseStatus::ok) parse_failed(report);
              return py::make_tuple(report.seconds, walk_seconds, nodes, checksum);
          },
          py::arg("language"), py::arg("data"),
          "Parse ``data`` as the lexer does, then walk the whole tree with a cursor, reading "
          "every node's symbol and byte range and nothing else (the floor of any tree walk): "
          "(parse seconds, walk seconds, nodes, checksum of what was read). For benchmarks.");
    m.def(
        "syntax_nodes",
        [](const py::capsule& language, const py::bytes& data, double seconds,
           uint64_t max_bytes) {
            const ParseInput in = parse_input(language, data, 0);
            const codetok::code::ParseLimits limits = parse_limits(seconds, max_bytes);
            codetok::code::ParseReport report;
            std::vector<int64_t> rows;  // start, end, parent, symbol, named per node
            {
                py::gil_scoped_release nogil;
                codetok::code::ParseArena arena;
                codetok::code::ArenaScope scope(arena);
                TSTree* tree = arena.parse(in.language, in.data, static_cast<uint32_t>(in.size),
                                           limits, report);
                if (tree != nullptr) {
                    TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
                    std::vector<int64_t> open{-1};  // the index of each open node; -1: root
                    bool more = ts_tree_cursor_goto_first_child(&c);
                    while (more) {
                        const TSNode node = ts_tree_cursor_current_node(&c);
                        const int64_t index = static_cast<int64_t>(rows.size() / 5);
                        rows.insert(rows.end(), {static_cast<int64_t>(ts_node_start_byte(node)),
                                                 static_cast<int64_t>(ts_node_end_byte(node)),
                                                 open.back(),
                                                 static_cast<int64_t>(ts_node_symbol(node)),
                                                 ts_node_is_named(node) ? 1 : 0});
                        if (ts_tree_cursor_goto_first_child(&c)) {
                            open.push_back(index);
                            continue;
                        }
                        while (!ts_tree_cursor_goto_next_sibling(&c)) {
                            if (open.size() == 1 || !ts_tree_cursor_goto_parent(&c)) {
                                more = false;
                                break;
                            }
                            open.pop_back();
                        }
                    }
                    ts_tree_cursor_delete(&c);
                }
            }
            if (report.status != codetok::code::ParseStatus::ok) parse_failed(report);
            return to_array(rows, rows.size() / 5, 5);
        },
        py::arg("language"), py::arg("data"), py::arg("seconds") = 0.0,
        py::arg("max_bytes") = 0,
        "Every node below the root of ``data``'s tree (parsed within ``seconds`` and "
        "``max_bytes``; ParseStopped past them), in document order: an int64 array of rows "
        "(start byte, end byte, parent row or -1, symbol, named). For AST-FIM's choice of "
        "a middle.");
    g_parse_stopped = PyErr_NewException("codetok._core.ParseStopped", PyExc_RuntimeError, nullptr);
    if (g_parse_stopped == nullptr) throw py::error_already_set();
    m.add_object("ParseStopped", py::reinterpret_borrow<py::object>(g_parse_stopped));
    codetok::code::install_parse_allocator();
#else
    m.attr("TREE_SITTER_VERSION") = py::none();
#endif
    py::class_<CodeRouter>(m, "CodeRouter")
        .def(py::init([](const py::dict& spec, const py::tuple& rules, const py::bytes& classes,
                         const py::object& code, const py::object& comment) {
                 if (rules.size() != 4) throw py::value_error("rules is a 4-tuple of word lists");
                 codetok::code::IdentifierRules r(strings_of(rules[0]), strings_of(rules[1]),
                                                  strings_of(rules[2]), strings_of(rules[3]));
                 const std::string table = classes;
                 if (table.size() != 0x110000)
                     throw py::value_error("classes must have one byte per code point");
                 return new CodeRouter(spec_of(spec), std::move(r),
                                       std::vector<uint8_t>(table.begin(), table.end()),
                                       channel_of(code), channel_of(comment));
             }),
             py::arg("spec"), py::arg("rules"), py::arg("classes"), py::arg("code"),
             py::arg("comment"))
        .def("run", &run_router, py::arg("text"), py::arg("from_bytes"), py::arg("kinds"),
             py::arg("starts"), py::arg("ends"), py::arg("doc_lex"), py::arg("doc_off"),
             py::arg("doc_id"), py::arg("split"), py::arg("lean") = false,
             "Route and encode one file's lexemes: (ids, token unit, unit start, unit end, "
             "unit lexeme, token lexeme, byte spans, char spans, lines) arrays; with "
             "``lean``, only (ids, token lexeme) as int64 arrays.");
    py::class_<codetok::code::DocSections>(m, "DocSections")
        .def(py::init([](const py::list& google, const py::list& tags, const py::list& xml) {
                 return new codetok::code::DocSections(words_of(google), words_of(tags),
                                                       words_of(xml));
             }),
             py::arg("google"), py::arg("tags"), py::arg("xml"))
        .def("find", &find_doc_sections, py::arg("text"), py::arg("lexemes"), py::arg("starts"),
             py::arg("ends"),
             "Section headers of the docstring lexemes: (lexeme, offset, code) arrays, and "
             "the lexemes that are not ASCII.");
    py::class_<CodeCounts>(m, "CodeCounts")
        .def(py::init<bool>(), py::arg("separate"))
        .def("add", &CodeCounts::add, py::arg("router"), py::arg("text"), py::arg("from_bytes"),
             py::arg("kinds"), py::arg("starts"), py::arg("ends"), py::arg("doc_lex"),
             py::arg("doc_off"), py::arg("doc_id"), py::arg("split"))
        .def("counts", &CodeCounts::counts);
}

}  // namespace bind
}  // namespace codetok
