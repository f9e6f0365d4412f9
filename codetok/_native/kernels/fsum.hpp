// The correctly rounded sum of doubles, as Python's ``math.fsum`` computes it, so native
// sampling weighs its choices exactly as the Python reference does.
//
// Shewchuk's exact partial sums (each addition's rounding error is kept as a further
// partial), then the partials added from the largest down, with the final round-half-even
// correction of CPython's ``math_fsum``. Inputs are finite here (sampling weights), so the
// infinity and NaN handling of ``math.fsum`` is left out.
#pragma once

#include <cmath>
#include <vector>

namespace codetok {

class ExactSum {
  public:
    void clear() { partials_.clear(); }

    void add(double x) {
        size_t i = 0;
        for (double y : partials_) {
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            const double hi = x + y;
            const double lo = y - (hi - x);
            if (lo != 0.0) partials_[i++] = lo;
            x = hi;
        }
        partials_.resize(i);
        partials_.push_back(x);
    }

    double value() const {
        size_t n = partials_.size();
        if (n == 0) return 0.0;
        double hi = partials_[--n];
        double lo = 0.0;
        while (n > 0) {
            const double x = hi, y = partials_[--n];
            hi = x + y;
            const double yr = hi - x;
            lo = y - yr;
            if (lo != 0.0) break;
        }
        // Round half to even: a tie between hi and its neighbour is decided by the sign of
        // the partials left below.
        if (n > 0 && ((lo < 0.0 && partials_[n - 1] < 0.0) || (lo > 0.0 && partials_[n - 1] > 0.0))) {
            const double y = lo * 2.0;
            const double x = hi + y;
            const double yr = x - hi;
            if (y == yr) hi = x;
        }
        return hi;
    }

  private:
    std::vector<double> partials_;
};

}  // namespace codetok
