"""Writes, for every struct the package declares in ctypes, its size and
each field's offset and size, as "struct NAME SIZE" and "NAME.FIELD OFFSET
SIZE" lines; with --c, the C program that prints the same lines from
include/dcfg/*.h (offsetof and sizeof), so the two can be compared.
Usage: layout.py [--c]"""

import ctypes
import sys

import dcfg._lib as lib

STRUCTS = [lib.Range, lib.FileName, lib.EdgeType, lib.SpecialNode, lib.Symbol, lib.SourceLine,
           lib.Block, lib.RoutineNode, lib.Routine, lib.Loop, lib.Edge, lib.Image, lib.Process,
           lib.ErrorStruct, lib.LoadOptions, lib.ChunkInfo, lib.RunEvent, lib.TraceEvent]


def main():
    if sys.argv[1:] == ["--c"]:
        print("#include <stddef.h>\n#include <stdio.h>\n#include <dcfg/error.h>\n"
              "#include <dcfg/dcfg.h>\n#include <dcfg/trace.h>\nint main(void)\n{")
        for s in STRUCTS:
            t = "struct " + s.__name__
            print('\tprintf("%s %%zu\\n", sizeof(%s));' % (t, t))
            for name, _ in s._fields_:
                print('\tprintf("%s.%s %%zu %%zu\\n", offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                      % (s.__name__, name, t, name, t, name))
        print("\treturn 0;\n}")
        return
    for s in STRUCTS:
        print("struct %s %d" % (s.__name__, ctypes.sizeof(s)))
        for name, _ in s._fields_:
            f = getattr(s, name)
            print("%s.%s %d %d" % (s.__name__, name, f.offset, f.size))


main()
