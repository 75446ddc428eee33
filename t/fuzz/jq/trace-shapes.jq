# The shapes a DCFG-trace holds, one name a line: what the trace seeds
# must cover and what the mutator must be able to make (t/fuzz.bats).
def rows: .[0] as $h | .[1:][] | . as $r
    | [range(0; [($h | length), ($r | length)] | min) | { key: $h[.], value: $r[.] }]
    | from_entries;
def maxid: . == 2147483647 or . == "0x7fffffff";
def seqshape: if . == "" then "empty sequence"
    elif test("\\([0-9]+\\*[^)]*\\(") then "nested repeat"
    elif test("\\(0\\*") then "zero repeat" else empty end;
(.PROCESSES // null | if . == null then empty
    elif length == 1 then "no processes" elif length > 2 then "several processes"
    elif (.[0] | index("STRING_DICTIONARY")) == null then "no dictionary column" else empty end),
(.PROCESSES // [] | rows
  | (.TRANSITION_TABLE
     | (if length == 1 then "header-only table" else empty end),
       (if .[0] != ["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]
        then "table columns reordered" else empty end),
       (rows | (.TRANSITION_CODE | if . == "" then "zero-bit code"
                elif length == 32 then "32-bit code" else empty end),
               (if (.NEXT_EDGE_IDS | length) > 1 then "group" else empty end),
               ((.CURRENT_EDGE_ID, .NEXT_EDGE_IDS[]) | select(maxid) | "id 0x7fffffff"))),
    (.STRING_DICTIONARY // null | if . == {} then "empty dictionary" else empty end),
    (.STRING_DICTIONARY // {} | to_entries[]
     | (.key as $k | .value | if . == "" then "empty value"
          elif contains("<" + $k + ">") then "self reference"
          elif test("^(<[^>]+>)\\1$") then "doubling value"
          elif test("^<[^>]+>$") then "reference value"
          else seqshape end)),
    (.THREAD_DATA | if length > 2 then "several threads" else empty end),
    (.THREAD_DATA | rows | .TRACE_DATA
     | (if .[0] != ["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT",
                    "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"]
        then "chunk columns reordered" else empty end),
       (rows | (.EDGE_COUNT | if . == 0 then "EDGE_COUNT 0" elif . == 1 then "EDGE_COUNT 1"
                else empty end),
               (.FIRST_EDGE_ID | select(maxid) | "id 0x7fffffff"),
               (.EDGE_ID_SEQUENCE | seqshape))))
