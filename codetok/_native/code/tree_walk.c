/* See tree_walk.h. */
#include "code/tree_walk.h"

#include "./alloc.h"
#include "./language.h"
#include "./subtree.h"
#include "./tree.h"

struct TreeWalkFrame {
    const Subtree *subtree;   /* the open node */
    uint32_t position;        /* its start byte */
    TSSymbol alias;           /* its alias */
    bool visible;             /* a node of the walk (else a hidden one walked through) */
    const TSSymbol *aliases;  /* its production's alias sequence, or NULL */
    uint32_t next;            /* the next child to look at */
    uint32_t structural;      /* that child's index among the non-extra ones */
    uint32_t child_position;  /* the start byte of that child */
};

/* Byte offsets only: the walk's readers ask for bytes, never for rows and columns, and
   adding points costs a branch per step. */
static uint32_t size_bytes(Subtree s) { return ts_subtree_size(s).bytes; }
static uint32_t padding_bytes(Subtree s) { return ts_subtree_padding(s).bytes; }

static void set_current(TreeWalk *w, const Subtree *node, uint32_t at, TSSymbol alias) {
    w->node = node;
    w->start = at;
    w->alias = alias;
}

static bool push(TreeWalk *w, const Subtree *node, uint32_t at, TSSymbol alias, bool visible) {
    if (w->depth == w->capacity) {
        uint32_t capacity = w->capacity ? 2 * w->capacity : 32;
        TreeWalkFrame *grown = ts_realloc(w->frames, capacity * sizeof(TreeWalkFrame));
        if (grown == NULL) {
            w->failed = true;
            return false;
        }
        w->frames = grown;
        w->capacity = capacity;
    }
    TreeWalkFrame *f = &w->frames[w->depth++];
    f->subtree = node;
    f->position = at;
    f->alias = alias;
    f->visible = visible;
    f->aliases = ts_language_alias_sequence(w->tree->language, node->ptr->production_id);
    f->next = 0;
    f->structural = 0;
    f->child_position = at;
    return true;
}

/* Reference: ts_tree_cursor_child_iterator_next and the loops around it: the next node
   among the top frame's children, walking through hidden children and out of hidden
   frames that are done. False at the end of a visible frame's children. */
static bool advance(TreeWalk *w) {
    for (;;) {
        TreeWalkFrame *f = &w->frames[w->depth - 1];
        const Subtree parent = *f->subtree;
        const uint32_t count = parent.ptr->child_count;
        if (f->next == count) {
            if (f->visible) return false;
            --w->depth; /* a hidden node's children are done: go on in its parent */
            continue;
        }
        const Subtree *children = ts_subtree_children(parent);
        const Subtree *child = &children[f->next];
        const uint32_t at = f->child_position;
        bool visible = ts_subtree_visible(*child);
        TSSymbol alias = 0;
        if (!ts_subtree_extra(*child)) {
            if (f->aliases) {
                alias = f->aliases[f->structural];
                visible |= alias != 0;
            }
            f->structural++;
        }
        f->next++;
        f->child_position = at + size_bytes(*child);
        if (f->next < count) f->child_position += padding_bytes(children[f->next]);
        if (visible) {
            set_current(w, child, at, alias);
            return true;
        }
        if (ts_subtree_visible_child_count(*child) > 0 && !push(w, child, at, alias, false))
            return false;
    }
}

bool tree_walk_init(TreeWalk *w, const TSTree *tree) {
    w->tree = tree;
    w->frames = NULL;
    w->depth = w->capacity = 0;
    w->failed = false;
    set_current(w, &tree->root, padding_bytes(tree->root), 0);
    w->frames = ts_malloc(32 * sizeof(TreeWalkFrame));
    w->capacity = w->frames ? 32 : 0;
    w->failed = w->frames == NULL;
    return !w->failed;
}

void tree_walk_free(TreeWalk *w) {
    ts_free(w->frames);
    w->frames = NULL;
    w->depth = w->capacity = 0;
}

uint16_t tree_walk_symbol(const TreeWalk *w) {
    const Subtree *node = w->node;
    const TSSymbol symbol = w->alias ? w->alias : ts_subtree_symbol(*node);
    return ts_language_public_symbol(w->tree->language, symbol);
}

uint32_t tree_walk_end(const TreeWalk *w) {
    return w->start + size_bytes(*(const Subtree *)w->node);
}

TSNode tree_walk_node(const TreeWalk *w) {
    const Length at = {w->start, {0, 0}}; /* no point: see tree_walk.h */
    return ts_node_new(w->tree, w->node, at, w->alias);
}

bool tree_walk_first_child(TreeWalk *w) {
    const Subtree *node = w->node;
    if (ts_subtree_child_count(*node) == 0) return false;
    const uint32_t depth = w->depth;
    if (!push(w, node, w->start, w->alias, true)) return false;
    if (advance(w)) return true;
    w->depth = depth;
    return false;
}

bool tree_walk_next_sibling(TreeWalk *w) {
    return w->depth > 0 && advance(w);
}

bool tree_walk_parent(TreeWalk *w) {
    while (w->depth > 0) {
        const TreeWalkFrame *f = &w->frames[--w->depth];
        if (f->visible) {
            set_current(w, f->subtree, f->position, f->alias);
            return true;
        }
    }
    return false;
}
