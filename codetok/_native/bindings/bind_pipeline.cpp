// Python binding of the native plans behind text_pipeline.hpp: ``_core.Pipeline`` (the BPE
// family, pipeline.hpp, over a ``BpeCore``) and the factory ``_core.WordPiecePipeline``
// (wordpiece_pipeline.hpp, over a ``WordPieceCore``) and ``_core.WordLevelUnitsPipeline``
// (wordlevel_pipeline.hpp), which build a ``Pipeline`` too.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "bindings/bind_arrays.hpp"
#include "bindings/bind_bpe.hpp"
#include "bindings/bind_common.hpp"
#include "bindings/bind_method.hpp"
#include "bindings/bind_unigram.hpp"
#include "bindings/bind_wordpiece.hpp"
#include "plans/pipeline.hpp"
#include "plans/text_pipeline.hpp"
#include "plans/unigram_pipeline.hpp"
#include "plans/wordlevel_pipeline.hpp"
#include "plans/wordpiece_pipeline.hpp"

namespace codetok {
namespace bind {

// Word splitting passes (word_splits.hpp): ``(kind, behavior)`` tuples.
std::vector<codetok::SplitPass> parse_passes(const py::list& passes) {
    std::vector<codetok::SplitPass> out;
    for (const py::handle& item : passes) {
        py::tuple t = item.cast<py::tuple>();
        if (t.size() != 2) throw py::value_error("a pass is (kind, behavior)");
        const int kind = t[0].cast<int>(), behavior = t[1].cast<int>();
        if (kind < 0 || kind > 3 || behavior < 0 || behavior > 4)
            throw py::value_error("a pass is (kind 0..3, behavior 0..4)");
        out.push_back({static_cast<codetok::SplitPass::Kind>(kind),
                       static_cast<codetok::SplitPass::Behavior>(behavior)});
    }
    return out;
}

namespace {

// --------------------------------------------------------------------- byte pipeline
class PipelineCore {
  public:
    // Byte-level when ``spm`` is false (``scanner``, ``add_prefix_space``, 256
    // ``byte_symbols``); SentencePiece-style otherwise (``prepend``: a codetok::Prepend,
    // ``meta``: the visible space, ``spm_words``: Metaspace's cuts are words; the scanner
    // and byte symbols are not used). ``passes``: when not empty, char-level BPE behind
    // HF's character-class pre-tokenizers, ``(kind, behavior)`` each (word_splits.hpp;
    // the scanner and byte symbols are not used). ``steps``: not SentencePiece-style;
    // normalizer steps (see ``parse_steps``) on the text between added tokens.
    PipelineCore(const BpeCore& bpe, int scanner, bool add_prefix_space,
                 const py::list& byte_symbols, const py::list& raw, const py::list& norm,
                 const py::str& whitespace, bool trims, bool spm, int prepend,
                 const py::str& meta, bool spm_words, const py::list& steps,
                 const py::list& passes) {
        if (spm && steps.size() > 0)
            throw py::value_error("normalizer steps go with byte-level BPE only");
        if (spm && passes.size() > 0)
            throw py::value_error("word splitting passes go with char-level BPE only");
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
        } else if (passes.size() > 0) {
            spec.passes = parse_passes(passes);
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
            bpe.kernel(), std::move(spec), added_matcher(raw, ws), added_matcher(norm, ws),
            codetok::NormSteps(parse_steps(steps), ws));
    }
    explicit PipelineCore(std::unique_ptr<codetok::TextPipeline> kernel)
        : kernel_(std::move(kernel)) {}

    // A ``NativeArrays`` over the result, or None (the Python path decides). ``model_core``
    // gives token strings (``tokens(ids)``); ``layout`` (see bind_arrays.hpp) places
    // special tokens around the sequence.
    py::object encode(const py::str& text, const py::handle& skip, int trim,
                      const py::handle& model_core, const py::handle& layout) const {
        return arrays_of(text.ptr(), sorted_ids(skip), trim, model_core, parse_layout(layout));
    }

    // ``encode`` as the ``Encoding`` over it (one C call for ``Tokenizer.encode``).
    py::object encode_encoding(const py::str& text, const py::handle& skip, int trim,
                               const py::handle& model_core, const py::handle& layout) const {
        const Layout lay = parse_layout(layout);
        return make_encoding(arrays_of(text.ptr(), sorted_ids(skip), trim, model_core, lay), lay);
    }
    // ``encode_encoding`` with nothing skipped and a parsed layout (``tokenizer_encode``).
    py::object encode_final(PyObject* text, int trim, const py::handle& model_core,
                            const Layout& lay) const {
        return make_encoding(arrays_of(text, kNoSkip, trim, model_core, lay), lay);
    }
    // ``make_arrays`` of one text encoded in the per-thread buffers, which keep their
    // capacity for the next text.
    py::object arrays_of(PyObject* text, const std::vector<int32_t>& skip, int trim,
                         const py::handle& model_core, const Layout& lay) const {
        if (skip.empty() && trim == 0) {
            DataRef data = encode_direct(str_view(text));
            if (data) return make_arrays(std::move(data), text, model_core, lay, false);
        }
        codetok::Encoded& out = encode_text(str_view(text), skip, trim, true, true);
        py::object arrays = make_arrays(out, text, model_core, lay, trim != 0);
        release(out);
        return arrays;
    }

    // Token ids only, as a list; None when the Python path must decide.
    py::object encode_ids(const py::str& text, const py::handle& skip) const {
        return ids_of(text.ptr(), sorted_ids(skip));
    }
    // ``encode_ids`` with the skipped ids sorted (``tokenizer_encode_ordinary``).
    py::object ids_of(PyObject* text, const std::vector<int32_t>& skip) const {
        codetok::Encoded& out = encode_text(str_view(text), skip, 0, false, true);
        py::object result = out.ok ? py::object(int_list(out.ids.data(), out.ids.size())) : py::none();
        release(out);
        return result;
    }

    // Subword regularization: ``rng`` (a model's SharedRandom) drawn from with dropout or
    // alpha ``p`` over ``nbest`` paths (see TextPipeline::set_sampling).
    void set_sampling(double p, long long nbest, std::shared_ptr<codetok::SharedRandom> rng) {
        if (!kernel_->set_sampling(p, nbest, std::move(rng)))
            throw py::value_error("this plan does not sample");
    }

    // ``encode`` (``encodings``: ``encode_encoding``) of every text on native threads;
    // entries are None where it would give None. The workers copy each result out of
    // their reused buffers into one allocation (``pack``), and this thread wraps each in
    // its Python objects as soon as it is ready, while the others go on encoding.
    py::list encode_batch(const py::handle& texts, const py::handle& skip, int trim,
                          long long threads, const py::handle& model_core,
                          const py::handle& layout, bool encodings) const {
        const Layout lay = parse_layout(layout);
        threads = lanes(threads);
        const Batch b = batch(texts, skip, threads);
        std::vector<DataRef> packed(b.views.size());
        return batch_list(
            b, threads, trim, true,
            [&](size_t k, const codetok::Encoded& out) { packed[k] = pack(out); },
            [&](size_t k) {
                py::handle text = PySequence_Fast_GET_ITEM(b.seq.ptr(), k);
                py::object a = make_arrays(std::move(packed[k]), text, model_core, lay, trim != 0);
                return encodings ? make_encoding(std::move(a), lay) : a;
            });
    }

    // ``encode_ids`` of every text on native threads, each list made as soon as its ids
    // are ready (see ``encode_batch``).
    py::list encode_ids_batch(const py::handle& texts, const py::handle& skip,
                              long long threads) const {
        threads = lanes(threads);
        const Batch b = batch(texts, skip, threads);
        std::vector<Ids> all(b.views.size());
        return batch_list(
            b, threads, 0, false, [&](size_t k, const codetok::Encoded& out) { all[k].keep(out); },
            [&](size_t k) {
                Ids& one = all[k];
                py::object o = one.ok ? py::object(int_list(one.ids.data(), one.ids.size()))
                                      : py::object(py::none());
                std::vector<int32_t>().swap(one.ids);
                return o;
            });
    }

    // The ids of one text as one ``int64`` array between ``prefix`` and ``suffix`` (a
    // post-processor's tokens), or None when the Python path must decide: ids alone of a
    // long text (CodeBERT mode's ``ids``) in about 12 bytes per token at the peak. The
    // text's own buffer reserves a token per char, which costs only the pages written
    // (no growth copies), and the result is the only other copy.
    py::object encode_ids64(const py::str& text, const py::handle& skip,
                            const std::vector<int64_t>& prefix,
                            const std::vector<int64_t>& suffix) const {
        const StrView v = str_view(text.ptr());
        codetok::Encoded out;
        out.ids.reserve(v.n + 16);
        encode_text(v, sorted_ids(skip), 0, false, true, out);
        if (!out.ok) return py::none();
        const size_t n = out.ids.size();
        py::array_t<int64_t> ids(static_cast<py::ssize_t>(prefix.size() + n + suffix.size()));
        int64_t* dst = ids.mutable_data();
        dst = std::copy(prefix.begin(), prefix.end(), dst);
        dst = std::copy(out.ids.begin(), out.ids.end(), dst);
        std::copy(suffix.begin(), suffix.end(), dst);
        return std::move(ids);
    }

    // All ids of all texts in one int32 array, and the int64 bounds (text k is
    // ids[bounds[k]:bounds[k + 1]]); None when any text needs the Python path.
    py::object encode_flat(const py::handle& texts, const py::handle& skip,
                           long long threads) const {
        threads = lanes(threads);
        const Batch b = batch(texts, skip, threads);
        const size_t n = b.views.size();
        std::vector<Ids> all(n);
        {
            py::gil_scoped_release nogil;
            codetok::parallel_for(n, threads, [&](size_t i) {
                const size_t k = b.order[i];
                codetok::Encoded& out = encode_text(b.views[k], b.skip, 0, false, false);
                all[k].keep(out);
                release(out);
            });
        }
        std::vector<int64_t> bounds{0};
        for (const auto& o : all) {
            if (!o.ok) return py::none();
            bounds.push_back(bounds.back() + static_cast<int64_t>(o.ids.size()));
        }
        py::array_t<int32_t> ids(static_cast<py::ssize_t>(bounds.back()));
        int32_t* dst = ids.mutable_data();
        for (const auto& o : all) {
            if (!o.ids.empty()) std::memcpy(dst, o.ids.data(), o.ids.size() * sizeof(int32_t));
            dst += o.ids.size();
        }
        return py::make_tuple(ids, to_array(bounds, bounds.size(), 1));
    }

  private:
    // One text's ids in a batch; ``ok`` false: the Python path decides.
    struct Ids {
        std::vector<int32_t> ids;
        bool ok = true;
        void keep(const codetok::Encoded& out) {  // an exact-size copy of its ids
            ok = out.ok;
            if (ok) ids.assign(out.ids.begin(), out.ids.end());
        }
    };

    // A batch of strs as the workers read them: in place, without the GIL, while ``seq``
    // keeps them alive and immutable; ``order``: the order to encode them in.
    struct Batch {
        py::object seq;  // a ``PySequence_Fast``
        std::vector<StrView> views;
        std::vector<size_t> order;
        std::vector<int32_t> skip;  // sorted
    };

    // A sampling plan runs a batch in order on one thread: a seed then gives the draws the
    // Python engine gives.
    long long lanes(long long threads) const { return kernel_->samples() ? 1 : threads; }

    static Batch batch(const py::handle& texts, const py::handle& skip, long long threads) {
        Batch b;
        b.seq = py::reinterpret_steal<py::object>(
            PySequence_Fast(texts.ptr(), "expected a list of str"));
        if (!b.seq) throw py::error_already_set();
        const size_t n = static_cast<size_t>(PySequence_Fast_GET_SIZE(b.seq.ptr()));
        PyObject** items = PySequence_Fast_ITEMS(b.seq.ptr());
        b.views.resize(n);
        for (size_t k = 0; k < n; ++k) b.views[k] = str_view(items[k]);
        b.skip = sorted_ids(skip);
        b.order = codetok::batch_order(n, threads, [&](size_t k) { return b.views[k].n; });
        return b;
    }

    // A list with one object per text of ``b``, made on native threads: ``keep(k, out)``
    // (a worker, without the GIL) keeps what it needs of text k's result ``out``, which
    // lives in the thread's reused buffers; ``make(k)`` (GIL held) makes its object as soon
    // as it is kept (see ``parallel_take``).
    template <class Keep, class Make>
    py::list batch_list(const Batch& b, long long threads, int trim, bool want_offsets,
                        Keep&& keep, Make&& make) const {
        py::list result(b.views.size());
        codetok::parallel_take<py::gil_scoped_release>(
            b.views.size(), threads,
            [&](size_t i) {
                const size_t k = b.order[i];
                codetok::Encoded& out = encode_text(b.views[k], b.skip, trim, want_offsets, false);
                keep(k, out);
                release(out);
            },
            [&](size_t i) { return heavy(b, i); },
            [&](size_t i) {
                const size_t k = b.order[i];
                PyList_SET_ITEM(result.ptr(), k, make(k).release().ptr());
            });
        return result;
    }

    // Item ``i`` (in encoding order) is long enough to encode without the GIL.
    static bool heavy(const Batch& b, size_t i) { return b.views[b.order[i]].n >= kNoGilFrom; }

    // One text's result buffers, kept per thread between calls (the arrays copy them out).
    static codetok::Encoded& reused() {
        static thread_local codetok::Encoded out;
        return out;
    }
    // The text ``v`` through the plan, in this thread's reused buffers (``ok`` false: the
    // Python path decides). ``gil_held``: the caller holds the GIL, which a long text
    // releases while it encodes (a short one gains less than the release costs).
    codetok::Encoded& encode_text(const StrView& v, const std::vector<int32_t>& skip, int trim,
                                  bool want_offsets, bool gil_held) const {
        return encode_text(v, skip, trim, want_offsets, gil_held, reused());
    }
    // ``encode_text`` into ``out``.
    codetok::Encoded& encode_text(const StrView& v, const std::vector<int32_t>& skip, int trim,
                                  bool want_offsets, bool gil_held, codetok::Encoded& out) const {
        if (left_to_python(v)) {
            out.clear();
            out.ok = false;
            return out;
        }
        auto run = [&](const auto* t, size_t n) {
            kernel_->encode(t, n, skip, trim, want_offsets, out);
        };
        if (gil_held && v.n >= kNoGilFrom) {
            py::gil_scoped_release nogil;
            with_units(v, run);
        } else {
            with_units(v, run);
        }
        return out;
    }
    // The text ``v`` (GIL held) encoded straight into its result when the plan knows its
    // token count first (TextPipeline::direct_count), else null.
    DataRef encode_direct(const StrView& v) const {
        if (left_to_python(v)) return {};
        DataRef data;
        auto run = [&](const auto* t, size_t n) {
            const int64_t count = kernel_->direct_count(t, n);
            if (count < 0) return;
            data = pack_direct(static_cast<size_t>(count),
                               [&](int32_t* ids, int64_t* offsets, int32_t* words) {
                                   return kernel_->encode_direct(t, n, ids, offsets, words);
                               });
        };
        if (v.n >= kNoGilFrom) {  // the count too: it reads the whole text
            py::gil_scoped_release nogil;
            with_units(v, run);
        } else {
            with_units(v, run);
        }
        return data;
    }
    // A text the Python path takes: it holds a surrogate code point (U+D800..U+DFFF) and
    // the tokenizer replaces surrogates as tiktoken does (``Tokenizer.surrogates``), which
    // ``Tokenizer._encode_one`` does before it encodes the rewritten text natively.
    bool left_to_python(const StrView& v) const {
        if (!surrogates_to_python_ || v.kind == PyUnicode_1BYTE_KIND) return false;
        bool found = false;
        with_units(v, [&](const auto* t, size_t n) {
            for (size_t k = 0; k < n && !found; ++k) found = t[k] >= 0xD800 && t[k] <= 0xDFFF;
        });
        return found;
    }
    static void release(codetok::Encoded& out) {
        if (out.ids.capacity() > (size_t{1} << 16)) out = codetok::Encoded();
    }
    static inline const std::vector<int32_t> kNoSkip{};
    // A text shorter than this encodes with the GIL held (releasing it costs more).
    static constexpr size_t kNoGilFrom = 4096;
    std::unique_ptr<codetok::TextPipeline> kernel_;
    bool surrogates_to_python_ = false;

  public:
    // Set once by ``codetok._plan`` right after the plan is built, before any encode.
    void set_surrogates_to_python(bool on) { surrogates_to_python_ = on; }
};

// --------------------------------------------------------------------- Tokenizer.encode
// What the C entries of ``Tokenizer.encode`` / ``encode_ordinary`` need of a plan,
// resolved once per plan (the plan cache holds it as a capsule; see ``Plan.fast_state``).
struct FastState {
    py::object core;  // keeps ``kernel`` alive
    const PipelineCore* kernel = nullptr;
    int trim = 0;
    py::object model_core;
    bool final = false;  // the plan finishes an encoding (``layouts`` are set)
    Layout layouts[2];   // by ``add_special_tokens``
    std::vector<int32_t> ordinary_skip;  // sorted: every special token, read as text
};
constexpr const char* kFastState = "codetok.FastState";

py::object fast_state(const py::object& core, int trim, const py::object& model_core,
                      const py::object& layouts, const py::handle& ordinary_skip) {
    auto state = std::make_unique<FastState>();
    state->core = core;
    state->kernel = &core.cast<const PipelineCore&>();
    state->trim = trim;
    state->model_core = model_core;
    if (!layouts.is_none()) {
        py::tuple both = layouts.cast<py::tuple>();
        if (both.size() != 2) throw py::value_error("layouts is (plain, special) or None");
        state->final = true;
        state->layouts[0] = parse_layout(both[0]);
        state->layouts[1] = parse_layout(both[1]);
    }
    state->ordinary_skip = sorted_ids(ordinary_skip);
    PyObject* cap = PyCapsule_New(state.get(), kFastState, [](PyObject* c) {
        delete static_cast<FastState*>(PyCapsule_GetPointer(c, kFastState));
    });
    if (cap == nullptr) throw py::error_already_set();
    state.release();
    return py::reinterpret_steal<py::object>(cap);
}

// The fast state of ``tok``'s cached plan when the cache is current (nothing counted in
// ``changes`` or in its added vocabulary's version since it was made), else nullptr (no
// error set). ``plain``: also require no truncation and no padding (``_plain``, kept by
// ``Tokenizer.__setattr__``).
// ``name``'s value in ``obj``'s own ``__dict__`` (borrowed), or nullptr with no error.
// The tokenizer's and the added vocabulary's plain instance attributes are read there
// directly: ``getattr`` looks the name up on the type first, and three of those were 7 %
// of the instructions of a short line's ``encode``.
PyObject* own_attr(PyObject* obj, PyObject* name) {
    PyObject* dict = PyObject_GenericGetDict(obj, nullptr);
    if (dict == nullptr) {
        PyErr_Clear();
        return nullptr;
    }
    Py_DECREF(dict);  // the object keeps its dict while this C call runs
    PyObject* v = PyDict_CheckExact(dict) ? PyDict_GetItemWithError(dict, name) : nullptr;
    if (v == nullptr) PyErr_Clear();
    return v;
}

const FastState* current_plan(PyObject* tok, PyObject* changes, bool plain) {
    static PyObject* s_plain = PyUnicode_InternFromString("_plain");
    static PyObject* s_cache = PyUnicode_InternFromString("_plan_cache");
    static PyObject* s_version = PyUnicode_InternFromString("version");
    // Borrowed below: the tokenizer keeps its attributes while this C call runs.
    if (plain && own_attr(tok, s_plain) != Py_True) return nullptr;
    PyObject* cache = own_attr(tok, s_cache);
    if (cache == nullptr || !PyTuple_CheckExact(cache) || PyTuple_GET_SIZE(cache) < 6)
        return nullptr;
    PyObject* cap = PyTuple_GET_ITEM(cache, 4);
    if (!PyCapsule_CheckExact(cap) || !PyList_CheckExact(changes) || PyList_GET_SIZE(changes) < 1)
        return nullptr;
    if (PyObject_RichCompareBool(PyTuple_GET_ITEM(cache, 1), PyList_GET_ITEM(changes, 0),
                                 Py_EQ) != 1) {
        PyErr_Clear();
        return nullptr;
    }
    // The added vocabulary the plan was made with (replacing it counts in ``changes``).
    PyObject* version = own_attr(PyTuple_GET_ITEM(cache, 5), s_version);
    if (version == nullptr ||
        PyObject_RichCompareBool(PyTuple_GET_ITEM(cache, 2), version, Py_EQ) != 1) {
        PyErr_Clear();
        return nullptr;
    }
    const auto* st = static_cast<const FastState*>(PyCapsule_GetPointer(cap, kFastState));
    if (st == nullptr) PyErr_Clear();
    return st;
}

// A C entry's answer: ``fn()``'s object; nullptr with the error set when a Python error
// was raised; nullptr with none when ``fn`` gave None or threw a C++ exception (the Python
// method then runs the same call, and raises through pybind11's translation).
template <class Fn>
PyObject* answer(Fn&& fn) {
    try {
        py::object r = fn();
        return r.is_none() ? nullptr : r.release().ptr();
    } catch (py::error_already_set& e) {
        e.restore();
        return nullptr;
    } catch (...) {
        return nullptr;
    }
}

// ``tok.encode(text)`` and ``tok.encode(text, add_special_tokens=b)`` (also with ``pair``
// None and ``is_pretokenized`` False) when the tokenizer has no truncation and no padding
// and its cached plan is current and finishes the encoding: ``Tokenizer.encode``'s own
// first branch, in C. Anything else (or a plan that leaves the text to Python) returns
// nullptr with no error: the Python method runs. ``changes`` is ``codetok._serde.CHANGES``.
PyObject* tokenizer_encode(PyObject* changes, PyObject* const* args, size_t nargs,
                           PyObject* kwnames) {
    if (nargs < 2 || nargs > 5 || !PyUnicode_CheckExact(args[1])) return nullptr;
    if (nargs > 2 && args[2] != Py_None) return nullptr;   // pair
    if (nargs > 3 && args[3] != Py_False) return nullptr;  // is_pretokenized
    PyObject* add = nargs > 4 ? args[4] : Py_True;
    static PyObject* s_add = PyUnicode_InternFromString("add_special_tokens");
    const Py_ssize_t nkw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nkw; ++k) {
        PyObject* name = PyTuple_GET_ITEM(kwnames, k);
        PyObject* value = args[nargs + static_cast<size_t>(k)];
        // Keyword names in calls are interned: the identity test settles the common one.
        if (nargs <= 4 && (name == s_add ||
                           PyUnicode_CompareWithASCIIString(name, "add_special_tokens") == 0))
            add = value;
        else if (nargs <= 2 && PyUnicode_CompareWithASCIIString(name, "pair") == 0) {
            if (value != Py_None) return nullptr;
        } else if (nargs <= 3 &&
                   PyUnicode_CompareWithASCIIString(name, "is_pretokenized") == 0) {
            if (value != Py_False) return nullptr;
        } else {
            return nullptr;  // a keyword the Python method checks (or a repeated one)
        }
    }
    if (add != Py_True && add != Py_False) return nullptr;
    const FastState* st = current_plan(args[0], changes, true);
    if (st == nullptr || !st->final) return nullptr;
    return answer([&] {
        return st->kernel->encode_final(args[1], st->trim, st->model_core,
                                        st->layouts[add == Py_True ? 1 : 0]);
    });
}

// ``tok.encode_ordinary(text)`` when the tokenizer's cached plan is current: the ids list
// from the native plan, every special token read as text (the Python method's first
// branch). Anything else returns nullptr with no error: the Python method runs.
PyObject* tokenizer_encode_ordinary(PyObject* changes, PyObject* const* args, size_t nargs,
                                    PyObject* kwnames) {
    if (nargs != 2 || kwnames != nullptr || !PyUnicode_CheckExact(args[1])) return nullptr;
    const FastState* st = current_plan(args[0], changes, false);
    if (st == nullptr) return nullptr;
    return answer([&] { return st->kernel->ids_of(args[1], st->ordinary_skip); });
}

// The WordPiece plan (wordpiece_pipeline.hpp): ``bert`` is None (no normalizer) or
// ``(clean_text, handle_chinese_chars, strip_accents, lowercase)``; ``unk_id`` -1 when the
// unknown token is not in the vocabulary.
// ``norm_added``: the normalized added tokens (contents normalized; see ``plan_added``).
PipelineCore wordpiece_pipeline(const WordPieceCore& wp, const py::object& bert, long long unk_id,
                                const py::list& raw, const py::str& whitespace,
                                const py::list& norm_added, const py::list& steps,
                                const py::list& passes) {
    codetok::WordPieceSpec spec;
    spec.passes = parse_passes(passes);
    if (!bert.is_none() && steps.size() > 0)
        throw py::value_error("a BertNormalizer or normalizer steps, not both");
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
    const std::vector<Cp> ws = cps_of(whitespace);
    auto [raw_m, norm_m] = plan_added(raw, norm_added, ws, spec.normalize || steps.size() > 0);
    return PipelineCore(std::make_unique<codetok::WordPiecePipeline>(
        wp.kernel(), spec, std::move(raw_m), codetok::NormSteps(parse_steps(steps), ws),
        std::move(norm_m)));
}

// The WordLevel plan without a regex (wordlevel_pipeline.hpp): ``units`` 0 (code points:
// ``vocab`` maps one-char tokens), 1 (UTF-8 bytes: ``byte_ids`` holds the 256 byte tokens'
// ids, -1: none), 2 (whitespace-separated words) or 3 (the ``Whitespace`` pre-tokenizer's
// words); for 2 and 3 ``vocab`` is the whole vocabulary.
// ``unk_id`` -1 when the unknown token is not in the vocabulary. ``steps``: normalizer
// steps (see ``parse_steps``) for code points and words.
PipelineCore wordlevel_units_pipeline(int units, const py::list& byte_ids, const py::dict& vocab,
                                      long long unk_id, const py::list& raw,
                                      const py::str& whitespace, const py::list& steps,
                                      const py::list& norm_added) {
    if (units < 0 || units > 4) throw py::value_error("units must be 0, 1, 2, 3 or 4");
    codetok::WordLevelUnitsSpec spec;
    spec.units = static_cast<codetok::WordLevelUnits>(units);
    std::vector<Cp> buf;
    if (spec.units == codetok::WordLevelUnits::Bytes) {
        if (byte_ids.size() != 256) throw py::value_error("byte_ids must hold 256 ids");
        for (size_t b = 0; b < 256; ++b) {
            const long long v = byte_ids[b].cast<long long>();
            spec.byte_id[b] = v < 0 ? -1 : checked_id(byte_ids[b], "byte id");
        }
    } else {
        // Chars: one-char tokens only, in the code-point table. Graphemes: every token in
        // ``words``, the one-char ones in the code-point table too. Words: in ``words``.
        const bool chars = spec.units == codetok::WordLevelUnits::Chars;
        const bool table = chars || spec.units == codetok::WordLevelUnits::Graphemes;
        constexpr Cp kDense = 0x3000;
        if (table) spec.dense.assign(kDense, -1);
        if (!chars) spec.words = std::make_shared<codetok::StrMap>();
        for (auto item : vocab) {
            buf.clear();
            append_cps(item.first.ptr(), buf);
            if (chars && buf.size() != 1) throw py::value_error("vocab maps one-char tokens");
            const int32_t id = checked_id(item.second, "token id");
            if (table && buf.size() == 1) {
                if (buf[0] < kDense)
                    spec.dense[buf[0]] = id;
                else
                    spec.sparse[buf[0]] = id;
            }
            if (!chars)
                spec.words->insert(buf.data(), buf.size(), codetok::StrMap::Entry{id, 0}, true);
        }
    }
    spec.unk_id = unk_id < 0 ? -1 : checked_id(py::int_(unk_id), "unk_id");
    std::vector<Cp> ws = cps_of(whitespace);
    auto [raw_m, norm_m] = plan_added(raw, norm_added, ws, steps.size() > 0);
    return PipelineCore(std::make_unique<codetok::WordLevelUnitsPipeline>(
        std::move(spec), std::move(raw_m), codetok::NormSteps(parse_steps(steps), ws),
        std::move(norm_m)));
}

}  // namespace

// The normalizer steps (norm_steps.hpp) of ``steps``: the normalizers in order, each a
// tuple: ``("precompiled", blob)``, ``("strip", left, right)``, ``("replace", pattern,
// min_run, content)`` (``min_run`` > 0: runs of the one-char ``pattern`` at least that
// long; 0: the literal ``pattern``), ``("prepend", content)``, ``("lowercase",)``,
// ``("strip_accents",)``, ``("nfc",)``, ``("nfd",)``, ``("nfkc",)``, ``("nfkd",)``.
std::vector<codetok::NormStep> parse_steps(const py::list& steps) {
    std::vector<codetok::NormStep> parsed;
    for (auto item : steps) {
        py::tuple t = item.cast<py::tuple>();
        const std::string kind = t[0].cast<std::string>();
        codetok::NormStep st;
        if (kind == "precompiled") {
            st.kind = codetok::NormStep::kPrecompiled;
            try {
                st.charsmap = std::make_shared<const codetok::CharsMap>(t[1].cast<std::string>());
            } catch (const std::invalid_argument& e) {
                throw py::value_error(e.what());
            }
        } else if (kind == "strip") {
            st.kind = codetok::NormStep::kStrip;
            st.left = t[1].cast<bool>();
            st.right = t[2].cast<bool>();
        } else if (kind == "replace") {
            st.kind = codetok::NormStep::kReplace;
            st.pattern = cps_of(t[1]);
            const long long run = t[2].cast<long long>();
            if (st.pattern.empty() || run < 0 || (run > 0 && st.pattern.size() != 1))
                throw py::value_error("replace needs a pattern (one char for a run)");
            st.min_run = static_cast<size_t>(run);
            st.content = cps_of(t[3]);
        } else if (kind == "prepend") {
            st.kind = codetok::NormStep::kPrepend;
            st.content = cps_of(t[1]);
        } else if (kind == "lowercase") {
            st.kind = codetok::NormStep::kLowercase;
        } else if (kind == "strip_accents") {
            st.kind = codetok::NormStep::kStripAccents;
        } else if (kind == "nfc" || kind == "nfd" || kind == "nfkc" || kind == "nfkd") {
            st.kind = codetok::NormStep::kUnicode;
            st.compat = kind.size() == 4;
            st.compose = kind.back() == 'c';
        } else {
            throw py::value_error("unknown normalizer step " + kind);
        }
        parsed.push_back(std::move(st));
    }
    return parsed;
}

namespace {

// ``steps`` (see ``parse_steps``) on ``text``: ``(normalized text, original index of each
// char)``. ``whitespace``: the chars ``Strip`` removes.
py::tuple norm_steps_normalize(const py::list& steps, const py::str& text,
                               const py::str& whitespace) {
    codetok::NormSteps norm(parse_steps(steps), cps_of(whitespace));
    codetok::NormalizedText t;
    codetok::NormStepsScratch w;
    t.text = cps_of(text);
    for (size_t i = 0; i < t.text.size(); ++i) t.src.push_back(static_cast<uint32_t>(i));
    norm.run(t, w);
    py::list src(t.src.size());
    for (size_t i = 0; i < t.src.size(); ++i)
        PyList_SET_ITEM(src.ptr(), i, PyLong_FromUnsignedLong(t.src[i]));
    py::str out = py::reinterpret_steal<py::str>(PyUnicode_FromKindAndData(
        PyUnicode_4BYTE_KIND, t.text.data(), static_cast<py::ssize_t>(t.text.size())));
    return py::make_tuple(out, src);
}

// The Unigram plan (unigram_pipeline.hpp): ``steps`` as ``parse_steps`` reads them;
// ``metaspace``: None or ``(replacement, prepend, split)`` (prepend 0 never, 1 always, 2
// first). ``byte_ids``: the 256 ``<0xNN>`` ids (-1: missing) when ``byte_fallback``.
PipelineCore unigram_pipeline(const UnigramCore& uni, const py::list& steps,
                              bool whitespace_split, const py::object& metaspace,
                              bool byte_fallback, const py::list& byte_ids,
                              const py::list& raw, const py::str& whitespace,
                              const py::list& norm_added) {
    std::vector<codetok::NormStep> parsed = parse_steps(steps);
    codetok::UnigramSpec spec;
    spec.whitespace_split = whitespace_split;
    if (!metaspace.is_none()) {
        py::tuple m = metaspace.cast<py::tuple>();
        std::vector<Cp> meta = cps_of(m[0]);
        if (meta.size() != 1) throw py::value_error("the Metaspace replacement must be one char");
        const int prepend = m[1].cast<int>();
        if (prepend < 0 || prepend > 2) throw py::value_error("prepend must be 0, 1 or 2");
        spec.metaspace = true;
        spec.meta = meta[0];
        spec.prepend = prepend;
        spec.split = m[2].cast<bool>();
    }
    spec.unk_id = uni.kernel()->unk_id();
    spec.byte_fallback = byte_fallback;
    spec.byte_ids.fill(-1);
    if (byte_fallback) {
        if (byte_ids.size() != 256) throw py::value_error("byte_ids must hold 256 ids");
        for (size_t b = 0; b < 256; ++b) {
            const long long v = byte_ids[b].cast<long long>();
            spec.byte_ids[b] = v < 0 ? -1 : checked_id(byte_ids[b], "byte id");
        }
    }
    std::vector<Cp> ws = cps_of(whitespace);
    auto [raw_m, norm_m] = plan_added(raw, norm_added, ws, !parsed.empty());
    return PipelineCore(std::make_unique<codetok::UnigramPipeline>(
        uni.kernel(), spec, codetok::NormSteps(std::move(parsed), ws), std::move(raw_m), ws,
        std::move(norm_m)));
}

}  // namespace
}  // namespace bind
}  // namespace codetok

void bind_pipeline(py::module_& m) {
    using codetok::bind::BpeCore;
    using codetok::bind::PipelineCore;
    // ``int_list`` and ``pair_list`` are bound for the tests only (tests/engine/test_native_lists.py):
    // they check bind_common.hpp's int_list and offset_int, which the plans' results use.
    m.def(
        "int_list",
        [](const py::array_t<int32_t, py::array::c_style | py::array::forcecast>& a) {
            if (a.ndim() != 1) throw py::value_error("int_list takes a 1-d array");
            return codetok::bind::int_list(a.data(), static_cast<size_t>(a.size()));
        },
        py::arg("values"),
        "``values.tolist()`` for a 1-d int32 array, with shared int objects for values "
        "below 2**20 (token ids, word indices).");
    m.def(
        "pair_list",
        [](const py::array_t<int64_t, py::array::c_style | py::array::forcecast>& a) {
            if (a.ndim() != 2 || a.shape(1) != 2) throw py::value_error("pair_list takes an (n, 2) array");
            const int64_t* p = a.data();
            const auto n = static_cast<size_t>(a.shape(0));
            py::list out(n);
            for (size_t i = 0; i < n; ++i) {
                PyObject* t = PyTuple_New(2);
                if (t == nullptr) throw py::error_already_set();
                PyList_SET_ITEM(out.ptr(), i, t);
                for (int j = 0; j < 2; ++j) {
                    PyObject* o = codetok::bind::offset_int(p[2 * i + j]);
                    if (o == nullptr) throw py::error_already_set();
                    PyTuple_SET_ITEM(t, j, o);
                }
            }
            return out;
        },
        py::arg("pairs"),
        "``[tuple(p) for p in pairs.tolist()]`` for an (n, 2) int64 array (offsets), "
        "sharing the int objects as ``int_list`` does.");
    py::class_<PipelineCore>(m, "Pipeline")
        .def(py::init<const BpeCore&, int, bool, const py::list&, const py::list&,
                      const py::list&, const py::str&, bool, bool, int, const py::str&, bool,
                      const py::list&, const py::list&>(),
             py::arg("bpe"), py::arg("scanner"), py::arg("add_prefix_space"),
             py::arg("byte_symbols"), py::arg("raw_added"), py::arg("norm_added"),
             py::arg("whitespace"), py::arg("trims"), py::arg("spm") = false,
             py::arg("prepend") = 0, py::arg("meta") = "\u2581", py::arg("spm_words") = false,
             py::arg("steps") = py::list(), py::arg("passes") = py::list())
        .def("encode", &PipelineCore::encode, py::arg("text"), py::arg("skip"),
             py::arg("trim"), py::arg("model_core"), py::arg("layout"))
        .def("encode_encoding", &PipelineCore::encode_encoding, py::arg("text"),
             py::arg("skip"), py::arg("trim"), py::arg("model_core"), py::arg("layout"))
        .def("encode_ids", &PipelineCore::encode_ids, py::arg("text"), py::arg("skip"))
        .def("set_sampling", &PipelineCore::set_sampling, py::arg("p"), py::arg("nbest"),
             py::arg("rng"))
        .def("set_surrogates_to_python", &PipelineCore::set_surrogates_to_python,
             py::arg("on"),
             "Leave every text holding a surrogate code point to the Python path (None in "
             "place of its result): ``Tokenizer.surrogates == \"replace\"``.")
        .def("encode_batch", &PipelineCore::encode_batch, py::arg("texts"), py::arg("skip"),
             py::arg("trim"), py::arg("threads"), py::arg("model_core"), py::arg("layout"),
             py::arg("encodings"))
        .def("encode_ids_batch", &PipelineCore::encode_ids_batch, py::arg("texts"),
             py::arg("skip"), py::arg("threads"))
        .def("encode_flat", &PipelineCore::encode_flat, py::arg("texts"), py::arg("skip"),
             py::arg("threads"))
        .def("encode_ids64", &PipelineCore::encode_ids64, py::arg("text"), py::arg("skip"),
             py::arg("prefix"), py::arg("suffix"))
        .def("fast_state", &codetok::bind::fast_state, py::arg("trim"), py::arg("model_core"),
             py::arg("layouts"), py::arg("ordinary_skip"),
             "What the C entries of ``Tokenizer.encode`` / ``encode_ordinary`` need of this "
             "plan: a capsule. ``layouts``: (plain, special) by ``add_special_tokens``, or None "
             "when the plan does not finish an encoding; ``ordinary_skip``: the special ids.");
    // ``Tokenizer.encode`` / ``encode_ordinary``: ``fallback`` (the Python method) with its
    // common call in C (bind_method.hpp); ``changes`` is ``codetok._serde.CHANGES``.
    for (const auto& [name, fast] : {std::pair{"tokenizer_encode", &codetok::bind::tokenizer_encode},
                                     std::pair{"tokenizer_encode_ordinary",
                                               &codetok::bind::tokenizer_encode_ordinary}})
        m.def(
            name,
            [fast = fast](const py::object& fallback, const py::list& changes) {
                PyObject* f = codetok::bind::new_fast_method(fast, changes.ptr(), fallback.ptr());
                if (f == nullptr) throw py::error_already_set();
                return py::reinterpret_steal<py::object>(f);
            },
            py::arg("fallback"), py::arg("changes"),
            "The Tokenizer method ``fallback`` with its common call answered in C.");
    m.def("WordPiecePipeline", &codetok::bind::wordpiece_pipeline, py::arg("wordpiece"),
          py::arg("bert"), py::arg("unk_id"), py::arg("raw_added"), py::arg("whitespace"),
          py::arg("norm_added") = py::list(), py::arg("steps") = py::list(),
          py::arg("passes") = py::list());
    m.def("WordLevelUnitsPipeline", &codetok::bind::wordlevel_units_pipeline, py::arg("units"),
          py::arg("byte_ids"), py::arg("vocab"), py::arg("unk_id"), py::arg("raw_added"),
          py::arg("whitespace"), py::arg("steps") = py::list(),
          py::arg("norm_added") = py::list());
    m.def("norm_steps_normalize", &codetok::bind::norm_steps_normalize, py::arg("steps"),
          py::arg("text"), py::arg("whitespace"),
          "The Unigram plan's normalizer steps on text: (text, original index per char).");
    m.def("UnigramPipeline", &codetok::bind::unigram_pipeline, py::arg("unigram"),
          py::arg("steps"), py::arg("whitespace_split"), py::arg("metaspace"),
          py::arg("byte_fallback"), py::arg("byte_ids"), py::arg("raw_added"),
          py::arg("whitespace"), py::arg("norm_added") = py::list());
}
