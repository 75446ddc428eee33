# The shapes a DCFG holds, one name a line (those of real files, see
# /work/shared/real/README.md): what the DCFG seeds must cover and what the
# mutator must be able to make (t/fuzz.bats).
def rows: .[0] as $h | .[1:][] | . as $r
    | [range(0; [($h | length), ($r | length)] | min) | { key: $h[.], value: $r[.] }]
    | from_entries;
(.EDGE_TYPES // [] | rows | select(.EDGE_TYPE == "UNKNOWN") | "UNKNOWN edge type"),
(.SPECIAL_NODES // [] | rows | select(.NODE_NAME == "UNKNOWN") | "UNKNOWN node"),
([.. | arrays | select(length == 1 and (.[0] | type) == "array" and (.[0] | length) > 0
    and all(.[0][]; type == "string"))] | if length > 0 then "header-only table" else empty end),
([.. | strings | select(test("^0x7fffffff$"))] | if length > 0 then "hex id 0x7fffffff" else empty end),
(.PROCESSES // [] | rows | .PROCESS_DATA // {}
  | (if has("EDGES") | not then "no EDGES" else empty end),
    (keys_unsorted | if index("INSTR_COUNT_PER_THREAD") != null and index("INSTR_COUNT") != null
       and index("INSTR_COUNT_PER_THREAD") < index("INSTR_COUNT")
       then "keys out of order" else empty end),
    (.EDGES // [] | (rows | select(all(.COUNT_PER_THREAD[]; . == 0)) | "zero counts"),
       ([rows | .EDGE_ID] | if . != sort then "unsorted EDGES" else empty end)),
    ([.IMAGES // [] | rows | .IMAGE_DATA // {} | .SYMBOLS // [] | rows | .NAME]
     | if length != (unique | length) then "shared names" else empty end),
    (.IMAGES // [] | rows
     | (.IMAGE_DATA // null | if . == null then "no IMAGE_DATA"
          elif has("SYMBOLS") and (keys - ["FILE_NAME_ID", "SYMBOLS"]) == []
          then "only FILE_NAME_ID and SYMBOLS"
          elif has("BASIC_BLOCKS") and (has("SOURCE_DATA") | not) then "no SOURCE_DATA"
          else empty end),
       (.IMAGE_DATA // {} | .BASIC_BLOCKS // [] | .[0] // []
        | if length > 0 and index("COUNT") == null then "no block COUNT" else empty end),
       (.IMAGE_DATA // {} | .ROUTINES // []
        | (.[1:][] | select(length == 3) | "3-value ROUTINES row"),
          (rows | .ENTRY_NODE_ID as $e | .LOOPS // []
           | (.[1:][] | select(length == 3) | "3-value LOOPS row"),
             (rows | (if .LOOP_HEAD_NODE_ID == $e then "loop headed at the entry" else empty end),
                     (if (.LOOP_BACK_EDGE_SOURCE_NODE_IDS | length) > 1
                      then "several latches" else empty end),
                     (if (.PARENT_LOOP_HEAD_NODE_ID // 0) != 0 then "nested loop"
                      else empty end))))))
