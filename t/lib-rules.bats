#!/usr/bin/env bats
# lib/ never ends the process (README, Library): scripts/lib-rules.sh reads
# every file of lib/ and names each call of exit(), _exit(), _Exit(),
# quick_exit() or abort(); a library reports, and the command's main
# returns the status. dcfg_cli_start, which once called _exit() when a
# closed standard descriptor could not be held, returns it instead.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."
COMMANDS="dcfg-info dcfg-expand dcfg-encode dcfg-edges dcfg-blocks dcfg-count dcfg-check dcfg-convert dcfg-profile dcfg-record"

@test "no file in lib/ calls exit(), _exit(), _Exit(), quick_exit() or abort()" {
	run sh "$ROOT/scripts/lib-rules.sh" "$ROOT"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

# The check itself, on a copy of lib/ with calls planted after the last line of a file.
@test "a call planted in lib/ is named with its file and line; comments, strings and names alike are not" {
	cp -r "$ROOT/lib" "$ROOT/scripts" .
	n=$(wc -l < lib/count/bykind.c)
	cat >> lib/count/bykind.c <<-'C'
	static void stop(int n) { if (n) exit(n); else _exit (2); }
	/* a comment may say exit(1) and abort(),
	   even over lines: _exit(2) */
	static const char why[] = "never exit(3) or abort() here", quote = '"';
	static int n_exits(void) { return atexit(0) + quick_exit_count + s->exit(1); }
	void die(void) { abort(); } void fast(void) { _Exit(1); quick_exit(4); } // exit(5)
	C
	run sh scripts/lib-rules.sh .
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "lib/count/bykind.c:$((n + 1)): exit()" ]
	[ "${lines[1]}" = "lib/count/bykind.c:$((n + 1)): _exit()" ]
	[ "${lines[2]}" = "lib/count/bykind.c:$((n + 6)): abort()" ]
	[ "${lines[3]}" = "lib/count/bykind.c:$((n + 6)): _Exit()" ]
	[ "${lines[4]}" = "lib/count/bykind.c:$((n + 6)): quick_exit()" ]
	[ "${#lines[@]}" -eq 5 ]
}

@test "a tree without lib/ sources is an error, not a pass" {
	mkdir -p lib/empty
	run sh "$ROOT/scripts/lib-rules.sh" .
	[ "$status" -eq 2 ]
	[ "$output" = "lib-rules.sh: no source under ./lib" ]
}

# A closed standard error is held with /dev/null before anything is opened;
# when even that fails (no descriptor is left under ulimit -n 2) the command
# stops with status 2 before it writes anything: its version line would go
# to the standard output it still has.
@test "every command stops with status 2, writing nothing, when a closed standard error cannot be held" {
	[ "${DCFG_SANITIZED:-}" != 1 ] || skip "AddressSanitizer needs descriptors of its own"
	for c in $COMMANDS; do
		run bash -c "exec 0<&- 2>&-; ulimit -n 2; exec $c --version"
		[ "$status" -eq 2 ] || { echo "$c: $status"; false; }
		[ -z "$output" ]
		# with one descriptor more it is held, and the command runs
		run bash -c "exec 0<&- 2>&-; ulimit -n 3; exec $c --version"
		[ "$status" -eq 0 ]
		[ "${output%% *}" = "$c" ]
	done
}
