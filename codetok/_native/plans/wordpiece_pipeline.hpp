// The native plan of a BERT-style WordPiece tokenizer: text -> ids, offsets and word ids in
// one pass: added/special tokens (matched on the original text), ``BertNormalizer``, other
// normalizer steps or none, ``BertPreTokenizer`` or HF's character-class pre-tokenizers,
// ``WordPiece`` with a per-word cache, unknown words as the unknown token over the whole
// word.
//
// It runs what ``Tokenizer._encode_one`` does in Python (codetok/tokenizer/tokenizer.py, the readable
// specification and the test oracle) for these components; codetok/engine/plan.py decides what is
// supported and builds the plan.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include "kernels/added.hpp"
#include "kernels/norm_steps.hpp"
#include "kernels/normalize.hpp"
#include "plans/pipeline.hpp"
#include "plans/text_pipeline.hpp"
#include "kernels/word_splits.hpp"
#include "kernels/wordpiece.hpp"

namespace codetok {

struct WordPieceSpec {
    bool normalize = false;  // a BertNormalizer runs (``bert``); else the text as it is
    BertNormalizerSpec bert;
    int32_t unk_id = -1;     // -1: the unknown token is not in the vocabulary
    // HF's character-class pre-tokenizers (word_splits.hpp) in place of BertPreTokenizer,
    // when not empty (the HF quicktour's WordPiece: Whitespace).
    std::vector<SplitPass> passes;
};

struct WordPieceScratch {
    PieceCache cache;
    std::vector<Cp> word;  // an ASCII word, normalized (the fast path)
    std::vector<AddedSegment> raw;
    NormalizedText norm;
    std::vector<uint32_t> bounds;
    std::vector<int32_t> ids, keys;
    std::vector<int64_t> spans, lens;
    NormStepsScratch steps;
    std::vector<Span32> words;
    SplitScratch split;
    std::vector<AddedSegment> normalized;  // normalized added tokens in one stretch
};

class WordPiecePipeline final : public TextPipelineOf<WordPiecePipeline> {
  public:
    // ``steps``: normalizer steps (norm_steps.hpp) in place of a BertNormalizer. ``norm``:
    // the added tokens matched on the normalized text of each stretch between ``raw``'s
    // (their contents normalized; empty when ``raw`` chains them, without a normalizer).
    WordPiecePipeline(std::shared_ptr<const WordPieceKernel> kernel, WordPieceSpec spec,
                      AddedMatcher raw, NormSteps steps = {}, AddedMatcher norm = {});

    // Encode ``t[0:n]`` (see TextPipeline); ``trim`` is not used. ``out.ok`` false: a word
    // is unknown and the vocabulary has no unknown token (the Python path raises its error).
    template <class CharT>
    void run(const CharT* t, size_t n, const std::vector<int32_t>& skip, int trim,
             bool want_offsets, Encoded& out) const;

  private:
    using Scratch = WordPieceScratch;
    template <class CharT>
    void segment(const CharT* t, size_t a, size_t b, const std::vector<int32_t>& skip,
                 bool want_offsets, Scratch& w, int32_t& word, Encoded& out) const;
    // The pre-tokenizer and the model on the normalized chars ``norm[p0:p1]`` of the
    // stretch starting at original index ``a``. False: stop (``out.ok`` says why).
    bool pieces(size_t p0, size_t p1, size_t a, bool want_offsets, Scratch& w, int32_t& word,
                Encoded& out) const;
    // ``segment`` with the normalizer steps or BertNormalizer on a normalized copy.
    template <class CharT>
    void general_segment(const CharT* t, size_t a, size_t b, const std::vector<int32_t>& skip,
                         bool want_offsets, Scratch& w, int32_t& word, Encoded& out) const;
    // ``segment`` without steps, word passes or normalized added tokens: runs between ASCII
    // whitespace that are ASCII chars the normalizer keeps take the tables (one pass, no
    // normalized copy), other runs ``general_segment``.
    template <class CharT>
    void ascii_segment(const CharT* t, size_t a, size_t b, const std::vector<int32_t>& skip,
                       bool want_offsets, Scratch& w, int32_t& word, Encoded& out) const;
    // Appends the tokens of one word (normalized chars ``s[0:n]``) whose k-th char is the
    // original char ``src[k]`` (``src`` null: ``first + k``).
    bool emit_word(const Cp* s, size_t n, const uint32_t* src, size_t first, bool want_offsets,
                   Scratch& w, int32_t& word, Encoded& out) const;
    // False when the word is unknown and there is no unknown token.
    bool word_tokens(const Cp* s, size_t n, Scratch& w, const int32_t*& ids,
                     const int64_t*& lens, size_t& count) const;

    // What an ASCII char is to the normalizer and the pre-tokenizer, and its normalized form.
    enum AsciiClass : uint8_t { kWordChar = 0, kSpaceChar = 1, kPunctChar = 2, kDeleted = 3 };
    std::array<uint8_t, 128> ascii_class_{};
    std::array<Cp, 128> ascii_norm_{};  // what BertNormalizer makes of each ASCII char
    // BertNormalizer of an ASCII stretch ``t[a:b]`` it deletes nothing of, from the table;
    // false (nothing done) when the stretch does not qualify.
    template <class CharT>
    bool ascii_normalized(const CharT* t, size_t a, size_t b, NormalizedText& nt) const;

    std::shared_ptr<const WordPieceKernel> kernel_;
    WordPieceSpec spec_;
    AddedMatcher raw_;
    NormSteps steps_;
    AddedMatcher norm_;
    // Normalizer steps, word passes or normalized added tokens: no ASCII one-pass path.
    bool general_ = false;
    ScratchPool<Scratch> scratch_;
};

}  // namespace codetok
