// Python binding of the WordPiece model (wordpiece.hpp): ``_core.WordPieceCore``. Declared
// here because the WordPiece plan is built over one (bind_pipeline.cpp); the methods are
// defined in bind_wordpiece.cpp.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "bindings/bind_common.hpp"
#include "kernels/wordpiece.hpp"

namespace codetok {
namespace bind {

class WordPieceCore {
  public:
    WordPieceCore(const py::dict& vocab, const py::handle& token_type, const py::str& prefix,
                  long long max_input_chars_per_word);

    // See flat_encoding. A piece the vocabulary cannot cover becomes one token
    // ``(unk_id, unk_token, (0, len))``; ``None`` when that is needed and unk_id < 0.
    py::object encode_offsets(const py::handle& pieces, const py::handle& anchors,
                              long long word_start, long long word_step, long long unk_id,
                              const py::object& unk_token) const;

    py::list tokenize_batch(const py::handle& pieces) const;

    std::shared_ptr<const codetok::WordPieceKernel> kernel() const { return kernel_; }

  private:
    TokenMaker tokens_;
    std::shared_ptr<codetok::WordPieceKernel> kernel_;
    std::vector<py::object> keys_;
    std::vector<py::object> key_ids_;  // the vocabulary's id object of each key
};

}  // namespace bind
}  // namespace codetok
