// Python binding of the trainers' native loops: ``train_bpe_merges`` (bpe_train.hpp),
// ``train_unigram_pieces`` (unigram_seeds.hpp, unigram_train.hpp) and ``PieceCounter``
// (piece_counter.hpp). They only convert (see module.cpp); codetok/trainers/ checks the
// options and codetok/engine/plan.py builds the counter.
#include <exception>
#include <memory>
#include <string>

#include "bindings/bind_common.hpp"
#include "train/bpe_train.hpp"
#include "train/piece_counter.hpp"
#include "train/unigram_seeds.hpp"
#include "train/unigram_train.hpp"

namespace {

using codetok::Cp;

std::u32string u32_of(const py::handle& s) {
    std::vector<Cp> cps;
    codetok::bind::append_cps(s.ptr(), cps);
    return std::u32string(cps.begin(), cps.end());
}

py::str str_of(const std::u32string& s) {
    PyObject* o = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, s.data(),
                                            static_cast<Py_ssize_t>(s.size()));
    if (o == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(o);
}

// Reference: codetok._reference.bpe_train.train_merges, over flat words.
// The integers of a one-dimensional buffer of ``T`` (``array.array``, bytes of a numpy
// array): the BPE trainer takes its words without numpy, which costs more to import than
// training a small corpus takes.
template <class T>
std::vector<T> buffer_values(const py::buffer& b, const char* name) {
    const py::buffer_info info = b.request();
    const char kind = info.format.empty() ? '?' : info.format.back();
    const bool integral = kind == 'b' || kind == 'h' || kind == 'i' || kind == 'l' || kind == 'q';
    if (info.ndim != 1 || info.itemsize != static_cast<py::ssize_t>(sizeof(T)) || !integral ||
        (info.shape[0] > 1 && info.strides[0] != info.itemsize))
        throw py::type_error(std::string(name) + " must be a contiguous buffer of " +
                             std::to_string(8 * sizeof(T)) + "-bit signed integers");
    const T* p = static_cast<const T*>(info.ptr);
    return std::vector<T>(p, p + info.shape[0]);
}

py::tuple train_bpe_merges(const py::buffer& symbols, const py::buffer& offsets,
                           const py::buffer& counts, const py::list& tokens, size_t vocab_size,
                           int64_t min_frequency, py::object max_token_length, py::object prefix,
                           py::object on_merge, size_t every) {
    codetok::BpeWords words;
    words.symbols = buffer_values<int32_t>(symbols, "symbols");
    const std::vector<int64_t> ends = buffer_values<int64_t>(offsets, "offsets");
    words.offsets.reserve(ends.size());
    for (const int64_t o : ends) {
        if (o < 0) throw py::value_error("word offsets must not be negative");
        words.offsets.push_back(static_cast<uint64_t>(o));
    }
    words.counts = buffer_values<int64_t>(counts, "counts");
    std::vector<std::u32string> vocab;
    vocab.reserve(tokens.size());
    for (const py::handle& t : tokens) vocab.push_back(u32_of(t));
    codetok::BpeTrainOptions opts;
    opts.vocab_size = vocab_size;
    opts.min_frequency = min_frequency;
    if (!max_token_length.is_none()) opts.max_token_length = max_token_length.cast<int64_t>();
    if (!prefix.is_none()) opts.prefix = u32_of(prefix);
    const size_t first_new = vocab.size();

    auto trainer = std::make_unique<codetok::BpeMergeTrainer>(std::move(words), std::move(vocab),
                                                              std::move(opts));
    std::exception_ptr failure;
    auto progress = [&](size_t done) {
        py::gil_scoped_acquire gil;
        try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (!on_merge.is_none()) on_merge(done);
        } catch (...) {
            failure = std::current_exception();
            return false;
        }
        return true;
    };
    std::vector<codetok::BpeMerge> merges;
    {
        py::gil_scoped_release nogil;
        merges = trainer->train(progress, every);
    }
    if (failure) std::rethrow_exception(failure);

    py::list table(merges.size());
    for (size_t i = 0; i < merges.size(); ++i) {
        const codetok::BpeMerge& g = merges[i];
        PyList_SET_ITEM(table.ptr(), static_cast<py::ssize_t>(i),
                        py::make_tuple(g.left, g.right, g.id, g.count).release().ptr());
    }
    py::list fresh;
    const auto& all = trainer->tokens();
    for (size_t i = first_new; i < all.size(); ++i) fresh.append(str_of(all[i]));
    trainer.reset();
    codetok::bind::release_free_memory();
    return py::make_tuple(table, fresh);
}

using Int64Array = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

// Reference: codetok._reference.unigram_train.train_pieces; ``required`` are the required
// chars (one-char strs), ``digits`` those of them that are digits (``str.isdigit``).
py::tuple train_unigram_pieces(const py::list& words, Int64Array counts, const py::list& required,
                               Int64Array required_counts, const py::str& digits,
                               size_t vocab_size, size_t max_piece_length, size_t seed_size,
                               int64_t min_count, double shrinking_factor,
                               size_t n_sub_iterations, const py::str& whitespace_char,
                               bool split_by_number, size_t num_threads, py::object on_step) {
    codetok::UnigramWords w;
    {
        codetok::bind::Flat flat = codetok::bind::flatten(words);
        w.text = std::move(flat.text);
        w.offsets.assign(flat.bounds.begin(), flat.bounds.end());
    }
    if (static_cast<size_t>(counts.size()) != w.offsets.size() - 1)
        throw py::value_error("counts must match words");
    w.counts.assign(counts.data(), counts.data() + counts.size());
    codetok::UnigramSeedOptions seeds;
    seeds.max_len = max_piece_length;
    seeds.min_count = min_count;
    seeds.seed_size = seed_size;
    seeds.split_by_number = split_by_number;
    const std::vector<Cp> ws = codetok::bind::cps_of(whitespace_char);
    if (ws.size() != 1) throw py::value_error("whitespace_char must be one char");
    seeds.whitespace = ws[0];
    for (const py::handle& c : required) {
        const std::vector<Cp> cp = codetok::bind::cps_of(c);
        if (cp.size() != 1) throw py::value_error("required chars must be one char each");
        seeds.required.push_back(cp[0]);
    }
    if (static_cast<size_t>(required_counts.size()) != seeds.required.size())
        throw py::value_error("required_counts must match required");
    seeds.required_counts.assign(required_counts.data(),
                                 required_counts.data() + required_counts.size());
    seeds.digits = codetok::bind::cps_of(digits);
    codetok::UnigramTrainOptions opts;
    opts.vocab_size = vocab_size;
    opts.max_piece_length = max_piece_length;
    opts.shrinking_factor = shrinking_factor;
    opts.n_sub_iterations = n_sub_iterations;
    opts.num_threads = std::max<size_t>(1, num_threads);

    std::exception_ptr failure;
    auto progress = [&](bool report, size_t n_pieces) {
        py::gil_scoped_acquire gil;
        try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (report && !on_step.is_none()) on_step(n_pieces);
        } catch (...) {
            failure = std::current_exception();
            return false;
        }
        return true;
    };
    codetok::UnigramPieces pieces;
    std::vector<double> objectives;
    {
        py::gil_scoped_release nogil;
        if (codetok::seed_pieces(w, seeds, [&] { return progress(false, 0); }, pieces))
            codetok::train_unigram(w, pieces, opts, progress, objectives);
    }
    if (failure) std::rethrow_exception(failure);
    py::list out_pieces(pieces.size());
    py::list out_scores(pieces.size());
    for (size_t p = 0; p < pieces.size(); ++p) {
        out_pieces[p] = str_of(std::u32string(pieces.at(p), pieces.at(p) + pieces.len(p)));
        out_scores[p] = py::float_(pieces.scores[p]);
    }
    py::list out_objectives;
    for (double o : objectives) out_objectives.append(py::float_(o));
    return py::make_tuple(out_pieces, out_scores, out_objectives);
}

// The corpus pass of a trainer: counts pieces of many texts, on threads, into its total.
class CounterCore {
  public:
    // ``pre``: 0 byte-level (``scanner``, ``add_prefix_space``), 1 character-class
    // ``passes``, 2 BertPreTokenizer, 3 words: ``whitespace_split`` and ``metaspace``
    // (None, or ``(meta, prepend 0..2, split)``). ``raw`` / ``norm``: added-token rows (see
    // added_matcher); ``steps``: normalizer steps, or ``bert`` (None, or BertNormalizer's
    // ``(clean_text, handle_chinese_chars, strip_accents, lowercase)``); ``whitespace``:
    // what Strip removes and WhitespaceSplit cuts at.
    CounterCore(int pre, int scanner, bool add_prefix_space, const py::list& passes,
                bool whitespace_split, const py::object& metaspace, const py::list& raw,
                const py::list& norm, const py::str& whitespace, const py::list& steps,
                const py::object& bert) {
        const std::vector<Cp> ws = codetok::bind::cps_of(whitespace);
        codetok::CounterSpec spec;
        if (pre < 0 || pre > 3) throw py::value_error("pre must be 0..3");
        spec.pre = static_cast<codetok::CounterSpec::Pre>(pre);
        spec.scanner = static_cast<codetok::Scanner>(scanner);
        spec.add_prefix_space = add_prefix_space;
        spec.passes = codetok::bind::parse_passes(passes);
        spec.whitespace_split = whitespace_split;
        if (!metaspace.is_none()) {
            const py::tuple m = metaspace.cast<py::tuple>();
            const std::vector<Cp> meta = codetok::bind::cps_of(m[0]);
            const int prepend = m[1].cast<int>();
            if (meta.size() != 1) throw py::value_error("meta must be one character");
            if (prepend < 0 || prepend > 2) throw py::value_error("prepend must be 0..2");
            spec.metaspace = true;
            spec.meta = meta[0];
            spec.prepend = prepend;
            spec.meta_split = m[2].cast<bool>();
        }
        if (!bert.is_none()) {
            const py::tuple b = bert.cast<py::tuple>();
            spec.bert_normalizer = true;
            spec.bert = codetok::BertNormalizerSpec{b[0].cast<bool>(), b[1].cast<bool>(),
                                                    b[2].cast<bool>(), b[3].cast<bool>()};
        }
        kernel_ = std::make_unique<codetok::PieceCounter>(
            std::move(spec), codetok::bind::added_matcher(raw, ws),
            codetok::bind::added_matcher(norm, ws),
            codetok::NormSteps(codetok::bind::parse_steps(steps), ws), ws);
    }

    // Count the pieces of every text of ``texts`` (``weights[k]`` times each when given)
    // on up to ``num_threads`` threads.
    void count(const py::list& texts, const py::object& weights, long long num_threads) {
        const size_t n = texts.size();
        std::vector<codetok::bind::StrView> views(n);
        for (size_t k = 0; k < n; ++k) views[k] = codetok::bind::str_view(texts[k].ptr());
        std::vector<int64_t> w(n, 1);
        if (!weights.is_none()) {
            const py::list ws = weights.cast<py::list>();
            if (ws.size() != n) throw py::value_error("weights must match texts");
            for (size_t k = 0; k < n; ++k) w[k] = ws[k].cast<int64_t>();
        }
        py::gil_scoped_release nogil;
        kernel_->count_all(n, w.data(), num_threads, [&](size_t k, auto&& fn) {
            codetok::bind::with_units(views[k], fn);
        }, total_);
    }

    // ``{piece: count}`` of everything counted so far, in order of first occurrence.
    py::dict counts() const { return codetok::bind::counts_dict(total_); }

    size_t size() const { return total_.size(); }

  private:
    std::unique_ptr<codetok::PieceCounter> kernel_;
    codetok::PieceCounts total_;
};

}  // namespace

void bind_train(py::module_& m) {
    py::class_<CounterCore>(m, "PieceCounter")
        .def(py::init<int, int, bool, const py::list&, bool, const py::object&, const py::list&,
                      const py::list&, const py::str&, const py::list&, const py::object&>(),
             py::arg("pre"), py::arg("scanner"), py::arg("add_prefix_space"), py::arg("passes"),
             py::arg("whitespace_split"), py::arg("metaspace"), py::arg("raw"), py::arg("norm"),
             py::arg("whitespace"), py::arg("steps"), py::arg("bert"))
        .def("count", &CounterCore::count, py::arg("texts"), py::arg("weights") = py::none(),
             py::arg("num_threads") = 1)
        .def("counts", &CounterCore::counts)
        .def("__len__", &CounterCore::size);
    m.def("train_bpe_merges", &train_bpe_merges, py::arg("symbols"), py::arg("offsets"),
          py::arg("counts"), py::arg("tokens"), py::arg("vocab_size"), py::arg("min_frequency"),
          py::arg("max_token_length"), py::arg("prefix"), py::arg("on_merge"),
          py::arg("every"),
          "BPE merges of flat words (``symbols[offsets[i]:offsets[i + 1]]`` occurring "
          "``counts[i]`` times) over the vocabulary ``tokens``: ``(merges, new_tokens)``, "
          "``merges`` an int64 ``(n, 4)`` array of ``(left, right, new_id, count)``. "
          "``on_merge(done)`` is called every ``every`` merges and at the end.");
    m.def("train_unigram_pieces", &train_unigram_pieces, py::arg("words"), py::arg("counts"),
          py::arg("required"), py::arg("required_counts"), py::arg("digits"), py::kw_only(),
          py::arg("vocab_size"), py::arg("max_piece_length"), py::arg("seed_size"),
          py::arg("min_count"), py::arg("shrinking_factor"), py::arg("n_sub_iterations"),
          py::arg("whitespace_char"), py::arg("split_by_number"), py::arg("num_threads") = 1,
          py::arg("on_step") = py::none(),
          "SentencePiece's unigram training on distinct ``words`` occurring ``counts`` times, "
          "from the seed vocabulary to about 1.1 * vocab_size pieces: ``(pieces, scores, "
          "objectives)``, as codetok._reference.unigram_train.train_pieces. ``on_step(n)`` is "
          "called after seeding, each EM round and each pruning step.");
}
