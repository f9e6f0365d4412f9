// Python binding of the Unigram model (unigram.hpp): ``_core.UnigramCore``. Declared
// here because the Unigram plan is built over one (bind_pipeline.cpp); the methods are
// defined in bind_unigram.cpp.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "bindings/bind_common.hpp"
#include "kernels/unigram.hpp"

namespace codetok {
namespace bind {

class UnigramCore {
  public:
    UnigramCore(const py::list& pieces, const py::list& scores, long long unk_id,
                double unk_score);
    py::object viterbi(const py::str& piece) const;
    py::list viterbi_batch(const py::handle& pieces) const;
    std::shared_ptr<const codetok::UnigramKernel> kernel() const { return kernel_; }

  private:
    std::shared_ptr<codetok::UnigramKernel> kernel_;
};

}  // namespace bind
}  // namespace codetok
