/* A depth-first walk over a tree-sitter tree's nodes, the nodes a TSTreeCursor visits and
   in the same order, without the cursor's cost per step.

   TSTreeCursor keeps only the path to the current node and, at every step to a sibling,
   rebuilds its parent's child iterator (the production's alias sequence, the parent's
   visibility, descendant counts) from scratch; a frame here keeps each open node's child
   iterator, so a step costs what reading one child costs. The rules for which children
   are nodes are the cursor's (tree_cursor.c: a child is a node when it is visible or
   aliased; a hidden child with visible children is walked through), written against the
   runtime's own headers, which is why this file is C and compiled with the runtime
   (setup.py). code_lexer.cpp walks with it; tests compare its lexemes with the Python
   lexer's, which walks with the bindings' cursor. */
#ifndef CODETOK_TREE_WALK_H
#define CODETOK_TREE_WALK_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TreeWalkFrame TreeWalkFrame;

typedef struct {
    const TSTree *tree;
    TreeWalkFrame *frames; /* the open nodes, the current node's parent last */
    uint32_t depth, capacity;
    const void *node;     /* the current node's subtree (a const Subtree *) */
    uint32_t start;       /* its start byte (the walk keeps bytes, not rows and columns) */
    uint16_t alias;       /* its alias in its parent's production, or 0 */
    bool failed;          /* a frame could not be allocated: the walk stopped short */
} TreeWalk;

/* A walk standing on the root node; its frames come from ts_malloc (the parse arena when
   one is set). False: no memory. */
bool tree_walk_init(TreeWalk *w, const TSTree *tree);
void tree_walk_free(TreeWalk *w);

/* The current node's public symbol (as ts_node_symbol), and its end byte. */
uint16_t tree_walk_symbol(const TreeWalk *w);
uint32_t tree_walk_end(const TreeWalk *w);
/* The current node as a TSNode (as ts_tree_cursor_current_node, but for its start point,
   which is not kept: its bytes and those of the nodes reached from it are right, their
   points are not). */
TSNode tree_walk_node(const TreeWalk *w);

/* Move as ts_tree_cursor_goto_first_child, _goto_next_sibling and _goto_parent do. */
bool tree_walk_first_child(TreeWalk *w);
bool tree_walk_next_sibling(TreeWalk *w);
bool tree_walk_parent(TreeWalk *w);

#ifdef __cplusplus
}
#endif

#endif
