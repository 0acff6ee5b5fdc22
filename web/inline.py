#!/usr/bin/env python3
"""inline.py WEBDIR MODULE.js OUT.html - the page as one file: the
template with its style, emscripten's module (the wasm already inlined by
-sSINGLE_FILE) and the page's script put in, so that it opens from file://
(where a browser refuses to fetch a separate .wasm) and from any host."""
import sys

web, module, out = sys.argv[1:4]
page = open(f"{web}/page.html", encoding="utf-8").read()
css = open(f"{web}/page.css", encoding="utf-8").read()
js = open(f"{web}/page.js", encoding="utf-8").read()
mod = open(module, encoding="utf-8").read()
# "</script" inside a script would end it early.
for name, text in (("module", mod), ("page", js)):
    if "</script" in text.lower():
        sys.exit(f"inline.py: {name} holds </script")
page = page.replace("/*STYLE*/", css, 1)
page = page.replace("/*MODULE*/", mod, 1).replace("/*PAGE*/", js, 1)
# The page states its own size: the bytes of this file, to within a
# digit's change, so it is computed once with the placeholder and again.
for _ in range(2):
    size = len(page.replace("@SIZE@", "%d KB" % 0).encode())
    sized = page.replace("@SIZE@", "%d KB" % round(size / 1024))
    size = len(sized.encode())
final = page.replace("@SIZE@", "%d KB" % round(size / 1024))
open(out, "w", encoding="utf-8").write(final)
