#!/usr/bin/gawk -f
# The pairing oracle, over `fgdecode --no-summary` text (or any output in its shape: an event line, then its
# stack as "    => SYMBOL+0xOFF/0xSIZE ..." lines).  kmem:kmalloc and kmem:kmem_cache_alloc say where their
# stack must pass: call_site is the return address into the allocating function, and so is one frame of
# the stack captured at their tracepoint (stack_trace_save() records return addresses).  For each such event
# with a stack: if no frame is "CALL_SITE/0x..." the stack is another event's: wrong.  A stack cut at
# max_depth ("[truncated]") cannot be checked and is counted apart.
# Prints one line: "checked N wrong N stackless N truncated N", then up to 5 wrong events (event line and
# first frames) on the lines after; exits 1 when any is wrong.
function flush() {
	if (!ev)
		return
	if (truncated)
		ntrunc++
	else if (!frames)
		stackless++
	else {
		checked++
		if (!found) {
			wrong++
			if (wrong <= 5)
				shown = shown "wrong: " evline "\n" first "\n"
		}
	}
	ev = 0
}
/ (kmalloc|kmem_cache_alloc): / {
	flush()
	if (match($0, /call_site=[^ ]+/)) {
		ev = 1
		site = substr($0, RSTART + 10, RLENGTH - 10)
		evline = $0
		frames = found = truncated = 0
		first = ""
	}
	next
}
/^    => / {
	if (!ev)
		next
	if (index($0, "[truncated]"))
		truncated = 1
	frames++
	if (frames <= 4)
		first = first $0 "\n"
	if (index($2, site "/") == 1)
		found = 1
	next
}
{ flush() }
END {
	flush()
	printf "checked %d wrong %d stackless %d truncated %d\n", checked, wrong, stackless, ntrunc
	printf "%s", shown
	exit wrong > 0
}
