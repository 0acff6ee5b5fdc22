# web/build.mk - the page (web/occcalc.html): the command line compiled
# to WebAssembly with emscripten and inlined into one HTML file.
#
#   make -f web/build.mk [srcdir=.] [O=_web]     (or `make web` after configure)
#
# It needs no ./configure: the sources are the lists Makefile.am builds
# the library and libcli from (read from it here, so that a file added
# there is compiled here too), and the config.h is the page's own. yajl,
# zlib and libzstd are Debian's sources (web/fetch-deps.sh), compiled
# here: Debian has no WebAssembly builds and emscripten's ports download.
srcdir ?= .
O ?= _web
EMCC ?= emcc
EMXX ?= em++
DEPS ?= $(O)/deps
PAGE ?= $(O)/occcalc.html

# A variable of Makefile.am, its continuation lines joined.
am_list = $(shell sed -e ':a' -e '/\\$$/N; s/\\\n//; ta' $(srcdir)/Makefile.am | \
	sed -n 's/^$(1) *= *//p')
LIB_C := $(call am_list,LIB_C)
# The GPU layer compiles to stubs without the CUDA runtime (no HAVE_CUDART).
CLI_C := $(call am_list,CLI_C)
CLI_CC := src/lib/demangle.cc

YAJL_C := $(addprefix yajl/src/,yajl.c yajl_alloc.c yajl_buf.c yajl_encode.c \
	yajl_gen.c yajl_lex.c yajl_parser.c yajl_tree.c yajl_version.c)
ZLIB_C := $(addprefix zlib/,adler32.c compress.c crc32.c deflate.c gzclose.c \
	gzlib.c gzread.c gzwrite.c infback.c inffast.c inflate.c inftrees.c \
	trees.c uncompr.c zutil.c)
ZSTD_C := $(addprefix zstd/lib/common/,debug.c entropy_common.c error_private.c \
	fse_decompress.c pool.c threading.c xxhash.c zstd_common.c) \
	$(addprefix zstd/lib/decompress/,huf_decompress.c zstd_ddict.c \
	zstd_decompress.c zstd_decompress_block.c)

# Debian's emscripten runs its JavaScript tools under whichever node is
# first on PATH; a node not Debian's does not look where Debian's acorn is.
export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))

OPT = -O2
CFLAGS_WEB = $(OPT) -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-I$(O) -I$(srcdir)/src/lib -I$(srcdir)/src/cli -I$(srcdir)/src/gpu \
	-I$(srcdir)/kernels -I$(DEPS)/include -I$(DEPS)/zlib -I$(DEPS)/zstd/lib \
	-DOCC_TABLES_DIR='"/tables"' -DOCC_BUILD_DIR='"/nonexistent"' \
	-DOCC_TRACE_LIB='"/nonexistent"' -DOCC_SOURCE_TABLES='"/tables"'
DEPFLAGS = $(OPT) -I$(DEPS)/include -I$(DEPS)/zlib -DZSTD_DISABLE_ASM \
	-DZSTD_MULTITHREAD=0 -DHAVE_UNISTD_H

OBJS = $(patsubst %.c,$(O)/obj/%.o,$(LIB_C) $(CLI_C) web/occweb.c) \
	$(patsubst %.cc,$(O)/obj/%.o,$(CLI_CC)) \
	$(patsubst %.c,$(O)/dep/%.o,$(YAJL_C) $(ZLIB_C) $(ZSTD_C))

# What the page calls; the file system, for the tables and dropped files.
LDFLAGS_WEB = $(OPT) -sSINGLE_FILE=1 -sMODULARIZE=1 -sEXPORT_NAME=occcalcModule \
	-sALLOW_MEMORY_GROWTH=1 -sFORCE_FILESYSTEM=1 -sENVIRONMENT=web,node \
	-sEXPORTED_FUNCTIONS=_main,_malloc,_free,_occweb_run,_occweb_out,_occweb_err \
	-sEXPORTED_RUNTIME_METHODS=FS,UTF8ToString \
	--embed-file $(srcdir)/data/arch-tables@/tables

all: $(PAGE)

$(DEPS)/.fetched:
	sh $(srcdir)/web/fetch-deps.sh $(DEPS)
	@touch $@

# yajl's headers as installed (yajl/...), its version header from CMake's template.
$(DEPS)/include/yajl/yajl_version.h: $(DEPS)/.fetched
	@mkdir -p $(DEPS)/include/yajl
	cp $(DEPS)/yajl/src/api/*.h $(DEPS)/include/yajl/
	sed -e 's/$${YAJL_MAJOR}/2/; s/$${YAJL_MINOR}/1/; s/$${YAJL_MICRO}/0/' \
		$(DEPS)/yajl/src/api/yajl_version.h.cmake >$@

$(O)/config.h:
	@mkdir -p $(O)
	printf '#define HAVE_ZSTD 1\n#define HAVE_ZSTD_STATIC_CTX 1\n' >$@

$(O)/obj/%.o: $(srcdir)/%.c $(O)/config.h $(DEPS)/include/yajl/yajl_version.h
	@mkdir -p $(dir $@)
	$(EMCC) $(CFLAGS_WEB) -c $< -o $@

$(O)/obj/%.o: $(srcdir)/%.cc
	@mkdir -p $(dir $@)
	$(EMXX) $(OPT) -std=c++17 -I$(srcdir)/src/lib -I$(srcdir)/src/cli -I$(srcdir)/src/gpu -I$(srcdir)/kernels -c $< -o $@

$(O)/dep/%.o: $(DEPS)/.fetched $(DEPS)/include/yajl/yajl_version.h
	@mkdir -p $(dir $@)
	$(EMCC) $(DEPFLAGS) -c $(DEPS)/$*.c -o $@

$(O)/occcalc.js: $(OBJS) $(wildcard $(srcdir)/data/arch-tables/*)
	$(EMXX) $(OBJS) $(LDFLAGS_WEB) -o $@

# The page: the template with the module and the page's script inlined.
$(PAGE): $(O)/occcalc.js $(srcdir)/web/page.html $(srcdir)/web/page.css \
		$(srcdir)/web/page.js $(srcdir)/web/inline.py
	python3 $(srcdir)/web/inline.py $(srcdir)/web $(O)/occcalc.js $@

clean:
	rm -rf $(O)/obj $(O)/dep $(O)/occcalc.js $(PAGE) $(O)/config.h

.PHONY: all clean
.SECONDARY:
