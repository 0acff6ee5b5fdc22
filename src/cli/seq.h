/* seq.h - sweeps: an option's values as the user writes them, "128",
 * "64,128,256", "32:1024:32", a block shape "16x16", or a mix. The
 * grammar and the generator are the library's (occcalc/sweep.h); these
 * are the command line's names for them. */
#ifndef OCC_CLI_SEQ_H
#define OCC_CLI_SEQ_H

#include "occcalc.h"

#define seq occ_seq
#define seq_range occ_seq_range
#define seq_iter occ_seq_iter
#define seq_free occ_seq_free
#define seq_first occ_seq_first
#define seq_next occ_seq_next
#define seq_count occ_seq_count
#define seq_shape_text occ_seq_shape_text

#endif
