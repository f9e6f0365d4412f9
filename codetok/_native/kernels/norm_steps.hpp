// A ``normalizers.Sequence`` of the simple normalizers, each with per-character alignment
// (normalize.hpp's ``NormalizedText``: one original index per char): ``Precompiled``
// (charsmap.hpp), ``Strip``, ``Replace`` (a literal pattern, or a run of one char such as
// the regex ``" {2,}"``), ``Prepend``, ``Lowercase``, ``StripAccents`` and the Unicode
// forms ``NFC``, ``NFD``, ``NFKC``, ``NFKD`` (over HF's tables in bert_tables.hpp).
//
// Native twins of the classes of those names in codetok/normalizers.py and
// codetok/formats/precompiled.py, with ``NormalizedString.transform``'s alignment rules:
// a replacement aligns to the last char of its match, an inserted prefix to the first char.
#pragma once

#include <memory>
#include <vector>

#include "kernels/charsmap.hpp"
#include "kernels/common.hpp"
#include "kernels/normalize.hpp"

namespace codetok {

struct NormStep {
    enum Kind : uint8_t {
        kPrecompiled, kStrip, kReplace, kPrepend, kLowercase, kUnicode, kStripAccents
    };
    Kind kind = kLowercase;
    std::shared_ptr<const CharsMap> charsmap;  // kPrecompiled
    bool left = false, right = false;          // kStrip
    std::vector<Cp> pattern;                   // kReplace: the literal, or the run's char
    size_t min_run = 0;                        // kReplace: >0: runs of ``pattern[0]`` this long
    std::vector<Cp> content;                   // kReplace, kPrepend
    bool compat = false, compose = false;      // kUnicode: NFKx / NFxC
};

// A set of chars (dense below U+3001, sorted above): the whitespace ``Strip`` removes and
// ``WhitespaceSplit`` cuts at (Rust's ``char::is_whitespace``).
class CharSet {
  public:
    CharSet() = default;
    explicit CharSet(const std::vector<Cp>& chars);
    bool has(Cp c) const { return c < dense_.size() ? dense_[c] != 0 : high(c); }

  private:
    bool high(Cp c) const;
    std::vector<uint8_t> dense_;
    std::vector<Cp> high_;
};

struct NormStepsScratch {
    NormalizedText tmp;
    PrecompiledScratch precompiled;
    std::vector<Cp> seq;       // kUnicode: the chars being normalized
    std::vector<int32_t> chg;  //   and HF's change of each
};

// Reference: ``normalizers.unicode._pinned_form``: NFD (``compat`` false) or NFKD of ``in``, then
// with ``compose`` the canonical compositions (NFC, NFKC), with HF's alignment. Returns
// false when the text stays as it is (``out`` untouched).
bool unicode_form(const NormalizedText& in, NormalizedText& out, bool compat, bool compose,
                  NormStepsScratch& w);

// Whether NFC leaves ``c`` as it is whatever stands around it: below U+0300 (NFC-stable,
// and no later char of a composition: those are all above), or a starter with no
// decomposition that no composition takes as a later char (a Hangul syllable counts: it
// decomposes and composes back by rule). A text of such chars is its own NFC: nothing to
// decompose or reorder, and no char composes with the one before it. Built once from the
// tables ``unicode_form`` reads (bert_tables.hpp).
bool nfc_inert(Cp c);

class NormSteps {
  public:
    NormSteps() = default;
    // ``whitespace``: the chars ``Strip`` removes (Rust's ``char::is_whitespace``).
    NormSteps(std::vector<NormStep> steps, const std::vector<Cp>& whitespace);

    bool empty() const { return steps_.empty(); }
    // A text whose chars are all below this leaves every step unchanged (0: no such bound):
    // only Unicode forms qualify, chars below U+0300 are NFC, below U+00C0 NFD, below U+00A0
    // NFKC and NFKD (no decomposition, nothing to compose with).
    Cp identity_below() const {
        Cp bound = steps_.empty() ? 0 : 0x110000;
        for (const NormStep& s : steps_) {
            Cp own = 0;
            if (s.kind == NormStep::kUnicode)
                own = s.compat ? 0xA0 : (s.compose ? 0x300 : 0xC0);
            if (own < bound) bound = own;
        }
        return bound;
    }
    // Run every step on ``text`` in place.
    void run(NormalizedText& text, NormStepsScratch& w) const;
    // Whether every step leaves ``t[a:b]`` as it is, known without running them: each step
    // is a Unicode form, and every char is below the form's bound of ``identity_below`` or,
    // for NFC, ``nfc_inert``.
    template <class CharT>
    bool identity_on(const CharT* t, size_t a, size_t b) const {
        if (steps_.empty()) return true;
        const Cp bound = identity_below();
        if (bound == 0) return false;
        if (sizeof(CharT) == 1 && bound > 0xFF) return true;  // a Latin-1 str is below it
        bool nfc_only = true;
        for (const NormStep& st : steps_) nfc_only = nfc_only && st.compose && !st.compat;
        for (size_t i = a; i < b; ++i) {
            const Cp c = t[i];
            if (c >= bound && !(nfc_only && nfc_inert(c))) return false;
        }
        return true;
    }
    // Every step on the stretch ``t[a:b]`` into ``out`` (``src`` counted from ``a``).
    template <class CharT>
    void run(const CharT* t, size_t a, size_t b, NormalizedText& out,
             NormStepsScratch& w) const {
        out.clear();
        out.text.assign(t + a, t + b);
        out.src.resize(b - a);
        for (size_t i = 0; i < b - a; ++i) out.src[i] = static_cast<uint32_t>(i);
        run(out, w);
    }

  private:
    std::vector<NormStep> steps_;
    CharSet space_;
};

}  // namespace codetok
