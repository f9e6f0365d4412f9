// See code_lexer.hpp. Each step names the Python code it repeats.
#include "code/code_lexer.hpp"

#ifdef CODETOK_TREE_SITTER

#include <algorithm>
#include <memory>
#include <new>

#include "code/tree_walk.h"

namespace codetok {
namespace code {
namespace {

struct WalkHandle {
    TreeWalk walk;
    ~WalkHandle() { tree_walk_free(&walk); }
};

// One entry per open inner node: a node that changes no context keeps its parent's type
// only (``simple``); the others save the whole context.
struct Frame {
    bool simple;
    int64_t end, ctx, flags, type, own_kid, own_parent;
};

class Walker {
  public:
    Walker(const WalkTables& g, WalkResult& out)
        : g_(g),
          out_(out),
          gap_(static_cast<int64_t>(g.roles.size()) - 2),
          error_(gap_ + 1) {}

    int64_t kid_of(TSNode node) const { return kid_of(ts_node_symbol(node)); }
    int64_t kid_of(TSSymbol symbol) const {
        const int64_t kid = symbol;
        return kid >= gap_ ? error_ : kid;
    }

    // Reference: ``_walk`` (which walks with a cursor; tree_walk.h visits the same nodes).
    void run(const TSTree* tree) {
        int64_t next_owner = 1, pos = 0;
        int64_t& ctx = ctx_;
        int64_t& fl = fl_;
        int64_t& own_kid = own_kid_;
        int64_t& own_p = own_p_;
        WalkHandle h;
        TreeWalk* w = &h.walk;
        if (!tree_walk_init(w, tree)) throw std::bad_alloc();
        int64_t cur_t = g_.type_index[kid_of(tree_walk_symbol(w))];
        if (ts_node_child_count(ts_tree_root_node(tree)) == 0) return;
        while (true) {
            const int64_t kid = kid_of(tree_walk_symbol(w));
            const int64_t s = w->start;
            if (s > pos) {
                span(pos, s, gap_, cur_t);
                pos = s;
            }
            const uint8_t r = g_.roles[kid];
            const int64_t node_end = tree_walk_end(w);
            const TSNode node = (r & kRoleDocBody) ? tree_walk_node(w) : TSNode{};
            if ((r & kRoleAtomic) || !tree_walk_first_child(w)) {
                if (w->failed) throw std::bad_alloc();
                const int64_t e = node_end;
                if (e > pos) {
                    span(pos, e, kid, cur_t);
                    pos = e;
                }
                bool done = false;
                while (!tree_walk_next_sibling(w)) {
                    if (w->failed) throw std::bad_alloc();
                    if (stack_.empty() || !tree_walk_parent(w)) {
                        done = true;
                        break;
                    }
                    const Frame f = stack_.back();
                    stack_.pop_back();
                    if (f.simple) {
                        cur_t = f.type;
                        continue;
                    }
                    if (f.end > pos) {  // the node's trailing bytes, in its own context
                        span(pos, f.end, gap_, cur_t);
                        pos = f.end;
                    }
                    ctx = f.ctx;
                    fl = f.flags;
                    cur_t = f.type;
                    own_kid = f.own_kid;
                    own_p = f.own_parent;
                }
                if (done) break;
                continue;
            }
            // an inner node: the walk already stands on its first child
            if (r) {
                stack_.push_back(Frame{false, node_end, ctx, fl, cur_t, own_kid, own_p});
                if ((r & kRoleDocBody) && g_.docstrings && doc_allowed(kid, cur_t))
                    find_docstring(node);
                if ((r & kRoleString) && !ctx) {
                    const bool doc = std::find(doc_starts_.begin(), doc_starts_.end(), s) !=
                                     doc_starts_.end();
                    ctx = doc ? -next_owner : next_owner;
                    ++next_owner;
                    own_kid = kid;
                    own_p = cur_t;
                } else if ((r & kRoleCode) && ctx) {
                    ctx = 0;
                    fl |= kFlagInterpolation;
                }
                if (r & kRoleDecorator) fl |= kFlagDecorator;
                if (r & kRoleError) fl |= kFlagInError;
                if (r & kRoleIndent) {
                    out_.blocks.push_back(s);
                    out_.blocks.push_back(node_end);
                    out_.blocks.push_back(g_.type_index[kid]);
                    out_.blocks.push_back(cur_t);
                }
            } else {
                stack_.push_back(Frame{true, 0, 0, 0, cur_t, 0, 0});
            }
            cur_t = g_.type_index[kid];
        }
    }

  private:
    // The bytes ``[a, b)``: a piece of the string being walked (merged into the previous
    // record when that is a piece of the same string), or else a ``kid`` leaf (or gap)
    // under a node of type ``type``.
    void span(int64_t a, int64_t b, int64_t kid, int64_t type) {
        out_.end = b;
        const bool in_string = ctx_ != 0;
        if (in_string && ctx_ == last_ctx_) return;
        last_ctx_ = ctx_;
        const int8_t sign = ctx_ > 0 ? 1 : (ctx_ < 0 ? -1 : 0);
        out_.records.push_back(WalkRecord{static_cast<uint32_t>(a),
                                          static_cast<uint16_t>(in_string ? own_kid_ : kid),
                                          static_cast<uint16_t>(in_string ? own_p_ : type),
                                          static_cast<uint8_t>(fl_), sign});
    }

    bool doc_allowed(int64_t kid, int64_t parent_type) const {
        if (g_.doc_body[kid] == 1) return true;
        const std::vector<uint16_t>& allowed = g_.doc_parents[kid];
        return std::find(allowed.begin(), allowed.end(), parent_type) != allowed.end();
    }

    // Reference: ``_find_docstring``: the first named child that is not a comment, when it
    // is the rule's statement holding one string (or one string of strings).
    void find_docstring(TSNode body) {
        const uint32_t n = ts_node_named_child_count(body);
        for (uint32_t i = 0; i < n; ++i) {
            const TSNode child = ts_node_named_child(body, i);
            const int64_t ck = kid_of(child);
            if (g_.comment_named[ck]) continue;
            if (g_.statement[ck] && ts_node_named_child_count(child) == 1) {
                const TSNode expr = ts_node_named_child(child, 0);
                if (g_.doc_string[kid_of(expr)]) {
                    const uint32_t m = ts_node_named_child_count(expr);
                    if (m && g_.doc_string[kid_of(ts_node_named_child(expr, 0))]) {
                        for (uint32_t k = 0; k < m; ++k)
                            doc_starts_.push_back(ts_node_start_byte(ts_node_named_child(expr, k)));
                    } else {
                        doc_starts_.push_back(ts_node_start_byte(expr));
                    }
                }
            }
            return;
        }
    }

    const WalkTables& g_;
    WalkResult& out_;
    const int64_t gap_, error_;
    // The context of the walk (``_walk``'s locals of the same names).
    int64_t ctx_ = 0, fl_ = 0, own_kid_ = 0, own_p_ = 0;
    int64_t last_ctx_ = 0;  // the context of the last record
    std::vector<Frame> stack_;
    std::vector<int64_t> doc_starts_;
};

}  // namespace

bool walk_source(const TSLanguage* language, const char* src, uint32_t n, const WalkTables& g,
                 const ParseLimits& limits, WalkResult& out, ParseReport& report) {
    // The parser, its tree and the walk's cursor live in the arena, released as a whole
    // on return (no node-by-node delete of the tree).
    ParseArena arena;
    ArenaScope scope(arena);
    TSTree* tree = arena.parse(language, src, n, limits, report);
    if (tree == nullptr) return false;
    const TSNode root = ts_tree_root_node(tree);
    // At most a leaf and a gap per node: reserved at once, the vector never moves (the
    // part not written is never touched, so it takes no memory).
    out.records.reserve(2 * static_cast<size_t>(ts_node_descendant_count(root)) + 2);
    Walker walker(g, out);
    out.root_kid = walker.kid_of(root);
    out.root_end = ts_node_end_byte(root);
    out.has_error = ts_node_has_error(root);
    walker.run(tree);
    return true;
}

bool error_bytes(const TSLanguage* language, const char* src, uint32_t n,
                 const ParseLimits& limits, uint64_t& total, ParseReport& report) {
    ParseArena arena;
    ArenaScope scope(arena);
    TSTree* tree = arena.parse(language, src, n, limits, report);
    if (tree == nullptr) return false;
    total = 0;
    std::vector<TSNode> todo{ts_tree_root_node(tree)};
    if (!ts_node_has_error(todo.back())) return true;
    while (!todo.empty()) {
        const TSNode node = todo.back();
        todo.pop_back();
        if (ts_node_is_error(node)) {
            const uint32_t width = ts_node_end_byte(node) - ts_node_start_byte(node);
            total += width ? width : 1;
        } else if (ts_node_is_missing(node)) {
            total += 1;
        } else if (ts_node_has_error(node)) {
            const uint32_t count = ts_node_child_count(node);
            for (uint32_t i = 0; i < count; ++i) todo.push_back(ts_node_child(node, i));
        }
    }
    return true;
}

}  // namespace code
}  // namespace codetok

#endif  // CODETOK_TREE_SITTER
