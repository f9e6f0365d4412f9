// Python binding of the Unigram model (unigram.hpp): ``_core.UnigramCore``. Declared
// here because the Unigram plan is built over one (bind_pipeline.cpp); the methods are
// defined in bind_unigram.cpp.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "bindings/bind_common.hpp"
#include "kernels/unigram.hpp"
#include "kernels/unigram_sample.hpp"

namespace codetok {
namespace bind {

class UnigramCore {
  public:
    UnigramCore(const py::list& pieces, const py::list& scores, long long unk_id,
                double unk_score);
    py::object viterbi(const py::str& piece) const;
    py::list viterbi_batch(const py::handle& pieces) const;
    // One drawn path ``(starts, ids)`` (reference: ``sample`` when ``nbest < 0``, else
    // ``sample_nbest`` over ``nbest``), or None when no path exists.
    py::object sample(const py::str& piece, double alpha, long long nbest,
                      const std::shared_ptr<codetok::SharedRandom>& rng) const;
    // The ``n`` best paths with scores (reference: ``nbest``), or None when none exists.
    py::object nbest(const py::str& piece, long long n) const;
    std::shared_ptr<const codetok::UnigramKernel> kernel() const { return kernel_; }

  private:
    std::shared_ptr<codetok::UnigramKernel> kernel_;
};

}  // namespace bind
}  // namespace codetok
