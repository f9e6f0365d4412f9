// Python's ``random.Random`` generator (MT19937), draw for draw, so a native plan that
// samples (BPE dropout, Unigram sampling) consumes the same stream as the Python engine.
//
// ``random()`` is CPython's: two 32-bit outputs, 27 and 26 bits of them, make a double in
// [0, 1) with 53 random bits. The state is CPython's too (624 words and the position), so
// ``random.Random.getstate()[1]`` loads here and comes back unchanged. ``SharedRandom`` is
// one generator behind a lock: a model's, shared by its kernel and its plans (and drawn
// from by Python through ``codetok.engine.shared_random``). Not handled here: seeding from a
// Python object (Python seeds, then hands over the state).
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace codetok {

class PyRandom {
  public:
    static constexpr int kN = 624;

    PyRandom() { state_.fill(0); }

    // From CPython's state: 624 words then the position (0..624).
    void set_state(const std::vector<uint64_t>& words) {
        if (words.size() != kN + 1 || words[kN] > kN)
            throw std::invalid_argument("a random state is 624 words and a position <= 624");
        for (int i = 0; i < kN; ++i) state_[i] = static_cast<uint32_t>(words[i]);
        pos_ = static_cast<int>(words[kN]);
    }
    std::vector<uint64_t> state() const {
        std::vector<uint64_t> out(state_.begin(), state_.end());
        out.push_back(static_cast<uint64_t>(pos_));
        return out;
    }

    uint32_t next_u32() {
        if (pos_ >= kN) twist();
        uint32_t y = state_[static_cast<size_t>(pos_++)];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
        return y;
    }

    // CPython's ``random_random``.
    double random() {
        const uint32_t a = next_u32() >> 5, b = next_u32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

  private:
    void twist() {
        constexpr uint32_t kUpper = 0x80000000u, kLower = 0x7fffffffu, kMatrix = 0x9908b0dfu;
        for (int k = 0; k < kN; ++k) {
            const uint32_t y = (state_[k] & kUpper) | (state_[(k + 1) % kN] & kLower);
            state_[k] = state_[(k + 397) % kN] ^ (y >> 1) ^ ((y & 1u) ? kMatrix : 0u);
        }
        pos_ = 0;
    }
    std::array<uint32_t, kN> state_;
    int pos_ = kN;
};

// One generator behind a lock: a model's, drawn from by its kernel, its plans and Python.
struct SharedRandom {
    std::mutex mutex;
    PyRandom random;
};

}  // namespace codetok
