// See tiktoken_ranks.hpp.
#include "kernels/tiktoken_ranks.hpp"

#include <algorithm>
#include <unordered_map>

namespace codetok {

namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\x0b' || c == '\x0c'; }

// Standard base64 (with '=' padding only at the end) of [p, p + n) appended to ``tok``;
// false when it is not that.
bool decode_base64(const char* p, size_t n, std::string& tok) {
    static const auto table = [] {
        std::array<int8_t, 256> t{};
        t.fill(-1);
        const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i) t[static_cast<uint8_t>(abc[i])] = static_cast<int8_t>(i);
        return t;
    }();
    if (n % 4) return false;
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        int pad = 0;
        for (int j = 0; j < 4; ++j) {
            const char c = p[i + j];
            if (c == '=' && i + 4 == n && j >= 2) {
                v[j] = 0;
                ++pad;
            } else if (pad || (v[j] = table[static_cast<uint8_t>(c)]) < 0) {
                return false;
            }
        }
        const unsigned x = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
        tok.push_back(static_cast<char>(x >> 16));
        if (pad < 2) tok.push_back(static_cast<char>((x >> 8) & 0xFF));
        if (pad < 1) tok.push_back(static_cast<char>(x & 0xFF));
    }
    return true;
}

// One non-blank line [q, eol): two fields, base64 and at most 9 decimal digits.
bool read_line(const char* q, const char* eol, RankedToken& out) {
    const char* f0 = q;
    while (q < eol && !space(*q)) ++q;
    const char* f0e = q;
    while (q < eol && space(*q)) ++q;
    const char* f1 = q;
    while (q < eol && !space(*q)) ++q;
    const char* f1e = q;
    while (q < eol && space(*q)) ++q;
    if (q != eol || f1 == f1e || f1e - f1 > 9) return false;
    long long rank = 0;
    for (const char* d = f1; d < f1e; ++d) {
        if (*d < '0' || *d > '9') return false;
        rank = rank * 10 + (*d - '0');
    }
    out.first.clear();
    out.second = rank;
    return decode_base64(f0, static_cast<size_t>(f0e - f0), out.first);
}

}  // namespace

long long read_ranks(const char* data, size_t size, std::vector<RankedToken>& out) {
    const char* p = data;
    const char* end = data + size;
    long long lineno = 0;
    RankedToken row;
    while (p < end) {
        const char* eol = p;
        while (eol < end && *eol != '\n' && *eol != '\r') ++eol;
        ++lineno;
        const char* q = p;
        while (q < eol && space(*q)) ++q;
        if (q < eol) {
            if (!read_line(q, eol, row)) return lineno;
            out.push_back(row);
        }
        p = eol;
        if (p < end && *p == '\r') ++p;
        if (p < end && *p == '\n' && (p == eol || p[-1] == '\r')) ++p;
    }
    return 0;
}

std::vector<std::array<int32_t, 3>> rank_merges(const std::vector<std::pair<std::string, int32_t>>& ranks) {
    std::unordered_map<std::string, int32_t> rank_of;
    rank_of.reserve(ranks.size() * 2);
    for (const auto& [tok, r] : ranks) rank_of[tok] = r;
    std::vector<std::array<int32_t, 3>> rows;
    for (const auto& [tok, r] : ranks) {
        for (size_t i = 1; i < tok.size(); ++i) {
            auto a = rank_of.find(tok.substr(0, i));
            if (a == rank_of.end()) continue;
            auto b = rank_of.find(tok.substr(i));
            if (b != rank_of.end()) rows.push_back({r, a->second, b->second});
        }
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

}  // namespace codetok
