// Python binding of the BPE model (bpe.hpp): ``_core.BpeCore``, one model's symbol table,
// merge ranks and options. Declared here because a ``Pipeline`` is built over one
// (bind_pipeline.cpp); the methods are defined in bind_bpe.cpp.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "bindings/bind_common.hpp"
#include "kernels/bpe.hpp"

namespace codetok {
namespace bind {

class BpeCore {
  public:
    BpeCore(const py::dict& vocab, const py::handle& merges, const py::list& values,
            const py::handle& token_type, const py::str& prefix, const py::str& suffix,
            long long unk_id, bool fuse_unk, bool byte_fallback, bool ignore_merges);

    // From a fast-load file's arrays: token k is utf8[offsets[k]:offsets[k + 1]] when
    // present[k]; merges are int32 rows (left, right, rank, new id).
    // ``tables``: None, or the merge and whole-token tables saved by ``tables()`` with the
    // same layout (``(pair_slots, word_slots, keys)`` buffers, kept alive by the caller);
    // then nothing is inserted and the merge rows are not read.
    BpeCore(const py::buffer& utf8, const py::buffer& offsets, const py::buffer& present,
            const py::handle& merges, const py::handle& token_type, const py::str& prefix,
            const py::str& suffix, long long unk_id, bool fuse_unk, bool byte_fallback,
            bool ignore_merges, const py::object& tables);

    // The merge and whole-token tables as bytes, and their layout version (see
    // ``codetok::kTableLayout``), for the binary format.
    py::tuple tables() const;

    // Token strings by id (decoded from the fast-load arrays on first use).
    const TokenTable& table() const {
        if (table_.off.size() != table_.present.size() + 1) decode_store();
        return table_;
    }
    const std::vector<uint8_t>& present() const { return table_.present; }

    // Token strings of ids (None where an id has none).
    py::list tokens(const py::handle& ids) const;

    // Every token string by id (None for gaps).
    py::list strings() const;

    // Ids of single characters as whole tokens (-1 where none).
    py::list symbol_ids(const py::str& chars) const;

    py::tuple encode(const py::str& piece) const;
    // ``encode`` with BPE-dropout, drawing from ``rng`` (reference: ``BPE._sample``).
    py::tuple sample(const py::str& piece, double dropout,
                     const std::shared_ptr<codetok::SharedRandom>& rng) const;
    py::list encode_batch(const py::handle& pieces) const;
    py::list tokenize_batch(const py::handle& pieces) const;

    // See flat_encoding; ``None`` when an id has no token string (the missing unk_token).
    py::object encode_offsets(const py::handle& pieces, const py::handle& anchors,
                              long long word_start, long long word_step) const;

    std::shared_ptr<const codetok::BpeKernel> kernel() const { return kernel_; }

  private:
    // Fill ``table_`` from the fast-load arrays (checked by the constructor).
    void decode_store() const;
    void add_merges(const py::handle& merges);
    // Every piece into one flat output (GIL released); returns the token count per piece.
    std::vector<size_t> encode_all(const Flat& f, codetok::BpeOutput& out) const;

    TokenMaker tokens_;
    std::shared_ptr<codetok::BpeKernel> kernel_;
    mutable TokenTable table_;
    py::object store_;   // the fast-load arrays, when built from them
    py::object tables_;  // the borrowed tables' memory, when borrowed
    bool o_prefix_empty_ = true, o_suffix_empty_ = true;
};

}  // namespace bind
}  // namespace codetok
