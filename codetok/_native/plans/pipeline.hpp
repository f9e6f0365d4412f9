// The native plan of a BPE tokenizer: text -> ids, offsets and word ids in one pass, with
// no Python object per piece or per token. Two kinds of pipeline run here:
//
// - byte-level (GPT-2, RoBERTa, cl100k, o200k, Llama-3): a scanner cuts the text, each piece
//   goes to bytes, the byte-level alphabet and BPE;
// - SentencePiece-style (Llama-2 conversions): ``Prepend("▁")`` and ``Replace(" ", "▁")``
//   normalize each text segment with no pre-tokenizer, or a ``Metaspace`` pre-tokenizer
//   does the same (its prepend schemes, with or without cutting before each "▁"); BPE
//   (with byte fallback) runs over characters. Without Metaspace's cuts, a segment is cut
//   before each "▁" that follows another char only when no token of the vocabulary holds
//   such a pair, so no merge could cross the cut and the result equals BPE over the whole
//   segment.
//
// It runs what ``Tokenizer._encode_one`` and ``ByteLevel`` post-processing do in Python
// (codetok/tokenizer/tokenizer.py, the readable specification and the test oracle) for the components
// it supports: added/special tokens (raw and normalized matchers, no normalizer), a scanner
// from pretokenize.hpp (the GPT-2 pattern of ``ByteLevel`` or a well-known ``Split``
// pattern), bytes to the byte-level alphabet, BPE with a per-piece cache, and the offset
// trimming of the ``ByteLevel`` post-processor. codetok/engine/plan.py decides what is supported
// and builds the plan; anything else runs the Python pipeline as a whole.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include "kernels/added.hpp"
#include "kernels/bpe.hpp"
#include "kernels/huge_pages.hpp"
#include "kernels/norm_steps.hpp"
#include "kernels/pretokenize.hpp"
#include "plans/text_pipeline.hpp"
#include "kernels/word_splits.hpp"

namespace codetok {

// Byte-level BPE results of recently seen pieces: piece code points -> ids and byte lengths.
// Short ASCII pieces that are one token (most pieces of code and English) live in a
// separate table keyed by the packed characters, so a hit costs one probe.
class PieceCache {
  public:
    // ``slot_bits``: the table has ``1 << slot_bits`` slots and holds half as many pieces;
    // full, it doubles up to ``kMaxSlots`` slots (a big text or batch with many distinct
    // pieces: 4 MB of code has about 60k, and a table that started over every 32k pieces
    // merged each again), then starts over.
    explicit PieceCache(unsigned slot_bits = 16)
        : mask_((size_t{1} << slot_bits) - 1),
          max_entries_(size_t{1} << (slot_bits - 1)),
          slots_(size_t{1} << slot_bits),
          short_(kShortSlots) {}

    // Up to 15 ASCII chars packed with their count into two words (``hi`` 0: the piece
    // does not qualify).
    struct ShortKey {
        uint64_t lo = 0, hi = 0;
        explicit operator bool() const { return hi != 0; }
        bool operator==(const ShortKey& o) const { return lo == o.lo && hi == o.hi; }
    };
    static constexpr size_t kShortChars = 15;
    template <class CharT>
    static ShortKey short_key(const CharT* s, size_t n) {
        return short_key(s, n, [](CharT c) { return c; });
    }
    // The key of the chars ``map(s[i])`` (a normalizer's table, say).
    template <class CharT, class Map>
    static ShortKey short_key(const CharT* s, size_t n, Map map) {
        ShortKey k;
        if (n > kShortChars) return k;
        uint64_t w[2] = {0, 0};
        for (size_t i = 0; i < n; ++i) {
            const auto c = map(s[i]);
            if (c >= 0x80) return k;
            w[i >> 3] |= static_cast<uint64_t>(c) << (8 * (i & 7));
        }
        k.lo = w[0];
        k.hi = w[1] | (static_cast<uint64_t>(n) << 56);  // n >= 1: never 0
        return k;
    }
    // The single token of a short piece, or -1.
    int32_t find_short(const ShortKey& key) const {
        size_t i = short_slot(key);
        while (short_[i].key.hi != 0) {
            if (short_[i].key == key) return short_[i].id;
            i = (i + 1) & (kShortSlots - 1);
        }
        return -1;
    }
    void put_short(const ShortKey& key, int32_t id) {
        if (short_count_ >= kShortSlots / 2) {
            std::fill(short_.begin(), short_.end(), ShortSlot{});
            short_count_ = 0;
        }
        size_t i = short_slot(key);
        while (short_[i].key.hi != 0) i = (i + 1) & (kShortSlots - 1);
        short_[i] = ShortSlot{key, id};
        ++short_count_;
    }

    // The cached tokens of ``s[0:n]`` (hash ``h``): ``count`` and pointers, or false.
    bool find(const Cp* s, size_t n, uint64_t h, const int32_t*& ids, const int64_t*& lens,
              size_t& count) const;
    void put(const Cp* s, size_t n, uint64_t h, const std::vector<int32_t>& ids,
             const std::vector<int64_t>& lens);

  private:
    struct Slot {
        uint64_t hash = 0;
        uint32_t key_off = 0, key_len = 0;  // key_len 0: empty slot
        uint32_t val_off = 0, val_len = 0;
    };
    struct ShortSlot {
        ShortKey key;
        int32_t id = -1;
    };
    static size_t short_slot(const ShortKey& k) {
        return mix64(k.lo * 0x9E3779B97F4A7C15ULL ^ k.hi) & (kShortSlots - 1);
    }
    void clear();
    void grow();
    static constexpr size_t kMaxSlots = size_t{1} << 18;
    static constexpr size_t kShortSlots = size_t{1} << 15;
    static constexpr size_t kMaxKeyChars = size_t{1} << 22;
    size_t mask_, max_entries_;
    HugeVector<Slot> slots_;
    HugeVector<Cp> keys_;
    HugeVector<int32_t> ids_;
    HugeVector<int64_t> lens_;
    size_t count_ = 0;
    HugeVector<ShortSlot> short_;
    size_t short_count_ = 0;
};

// How a SentencePiece-style segment gets its leading meta char.
enum class Prepend : int {
    Never = 0,
    Always = 1,      // the Prepend normalizer: always, before spaces are replaced
    Missing = 2,     // Metaspace "always": when the segment does not start with the meta char
    FirstMissing = 3 // Metaspace "first": the same, only for a segment at the text's start
};

struct PipelineSpec {
    bool spm = false;                       // SentencePiece-style (else byte-level)
    Cp meta = 0x2581;                       // "▁", the visible space
    Prepend prepend = Prepend::Never;
    bool spm_words = false;                 // Metaspace(split=True): each cut is a word
    bool spm_split = false;                 // cutting before "▁" is safe (see above)
    Scanner scanner = Scanner::Gpt2;
    bool add_prefix_space = false;          // ByteLevel pre-tokenizer's, per text segment
    std::array<int32_t, 256> byte_symbol{};  // id of each byte's byte-level character
    std::vector<uint8_t> has_value;         // per id: the model has a token string for it
    std::vector<uint16_t> lead, trail;      // per id: leading / trailing spaces of its string
                                            // (empty: the plan never trims offsets)
    // Char-level BPE behind HF's character-class pre-tokenizers (word_splits.hpp), when
    // not empty: each piece they leave is one word through the model (neither byte-level
    // nor SentencePiece-style).
    std::vector<SplitPass> passes;
};

// Per-call working memory (reused through a pool, so a call allocates nothing once warm).
struct PipelineScratch {
    PieceCache cache;
    std::vector<AddedSegment> raw, norm;
    std::vector<Cp> text;             // a segment, with the prefix space when one is added
    std::vector<uint32_t> ends;       // scanner output
    std::vector<int32_t> ids;         // BPE of one piece
    std::vector<int64_t> lens;
    std::vector<Cp> bytechars;        // the piece in the byte-level alphabet (ignore_merges)
    std::vector<uint32_t> byte_char;  // byte -> char of the piece
    std::vector<Cp> piece;            // a piece widened to code points (cache key)
    NormalizedText normalized;        // a segment after the normalizer steps
    NormStepsScratch steps;
    std::vector<Span32> words;        // the pieces of word splitting passes
    SplitScratch split;
};

class Pipeline final : public TextPipelineOf<Pipeline> {
  public:
    Pipeline(std::shared_ptr<const BpeKernel> bpe, PipelineSpec spec, AddedMatcher raw,
             AddedMatcher norm, NormSteps steps = {});

    // Encode ``t[0:n]`` (see TextPipeline). ``trim``: 0 none, 1 ByteLevel offset trimming,
    // 2 the same with ``add_prefix_space``. ``out.ok`` false: a token has no string (the
    // Python path decides).
    template <class CharT>
    void run(const CharT* t, size_t n, const std::vector<int32_t>& skip, int trim,
             bool want_offsets, Encoded& out) const;

    // BPE-dropout ``p`` (``nbest`` unused): each piece merged with dropout, not cached.
    bool set_sampling(double p, long long nbest, std::shared_ptr<SharedRandom> rng) override {
        (void)nbest;
        dropout_ = p;
        rng_ = p > 0.0 ? std::move(rng) : nullptr;
        return true;
    }
    bool samples() const override { return rng_ != nullptr; }

  private:
    using Scratch = PipelineScratch;
    template <class CharT>
    void encode_segment(const CharT* t, size_t a, size_t b, bool want_offsets, Scratch& w,
                        int32_t& word, Encoded& out) const;
    // ``src``: the original index (from ``a``) of each char of ``s`` past the ``pre``
    // prefix chars, or null when char k stands for original char ``a + k - pre``.
    template <class CharT>
    void encode_pieces(const CharT* s, size_t n, size_t a, size_t pre, const uint32_t* src,
                       bool want_offsets, Scratch& w, int32_t& word, Encoded& out) const;
    template <class CharT>
    void spm_segment(const CharT* t, size_t a, size_t b, bool want_offsets, Scratch& w,
                     int32_t& word, Encoded& out) const;
    template <class CharT>
    void words_segment(const CharT* t, size_t a, size_t b, bool want_offsets, Scratch& w,
                       int32_t& word, Encoded& out) const;
    template <class Orig>
    bool push_char_piece(const Cp* s, size_t p0, size_t p1, Orig&& orig, bool want_offsets,
                         Scratch& w, int32_t word, Encoded& out) const;
    // Char-level BPE of one piece, cached: ids and char spans (``start << 32 | end``
    // inside the piece); false when a token has no string (the Python path decides).
    bool char_piece(const Cp* p, size_t n, Scratch& w, const int32_t*& ids,
                    const int64_t*& spans, size_t& count) const;
    // False when a token of the piece has no string (the Python path decides).
    bool encode_piece(const Cp* p, size_t n, Scratch& w, const int32_t*& ids,
                      const int64_t*& lens, size_t& count) const;
    template <class CharT>
    void trim_offsets(const CharT* t, bool add_prefix_space, Encoded& out) const;

    std::shared_ptr<const BpeKernel> bpe_;
    double dropout_ = 0.0;
    std::shared_ptr<SharedRandom> rng_;  // set: dropout (its lock held for a whole text)
    PipelineSpec spec_;
    AddedMatcher raw_, norm_;
    NormSteps steps_;  // byte-level: the normalizer, on the text between added tokens
    std::array<Cp, 256> byte_char_;  // the byte-level alphabet
    ScratchPool<Scratch> scratch_;
};

// Python's ``str.isspace`` (tests/engine/test_native_pipeline.py checks it code point by code point).
bool py_isspace(Cp c);
// Leading / trailing chars that are ``Ġ`` or ``str.isspace`` (ByteLevel offset trimming).
template <class CharT>
uint16_t lead_spaces(const CharT* s, size_t n);
template <class CharT>
uint16_t trail_spaces(const CharT* s, size_t n);

}  // namespace codetok
