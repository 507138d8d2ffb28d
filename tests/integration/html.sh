#!/bin/sh
# -F html in a real headless Chromium: no console errors, the elements exist after the page's script ran (the
# tables are sortable and sort), hostile argv and paths stay text, a screenshot is made. A 5,000-process footprint:
# tests/integration/html_large.sh.
. "$(dirname "$0")/../lib.sh"

CHROMIUM=$(command -v chromium || true)
SHOTS=${KF_SHOTS:-$KF_TOP/$KF_BUILD/shots}
mkdir -p "$SHOTS"

# A file name and arguments no page may run: markup, both quotes, bytes that are not UTF-8.
bad=$(printf '<img src=x onerror=alert(2)>"q'"'"'\377\376')
: >"$T/$bad"
"$KF" record -b ptrace --map -o "$T/a.json" -F html --report "$T/rec.html" -- \
	sh -c 'cat "$1" >/dev/null; ls /nonexistent 2>/dev/null; true' '<script>alert(1)</script>' "$T/$bad"
eq "html: record -F html --report exits 0" 0 $?
"$KF" report -F html -o "$T/rep.html" "$T/a.json"
eq "html: report -F html -o exits 0" 0 $?
check "html: one document, nothing after </html>" sh -c "tail -c 8 '$T/rec.html' | grep -q '</html>'"
check "html: no network reference (no http URL, no src=)" sh -c "! grep -aEq 'https?://|src=\"' '$T/rec.html'"
check "html: record --map adds the kernel source and options" grep -aq 'id="sources"' "$T/rec.html"
check "html: the hostile name is escaped" grep -aq '&lt;img src=x onerror=alert(2)&gt;&quot;q&#39;' "$T/rec.html"
check "html: the hostile argument is escaped" grep -aq '&lt;script&gt;alert(1)&lt;/script&gt;' "$T/rec.html"
check "html: bytes that are not UTF-8 shown as \\xHH" grep -aq '\\xff\\xfe' "$T/rec.html"
check "html: the page is valid UTF-8" python3 -c "open('$T/rec.html', encoding='utf-8').read()"

nsc=$(jget "$T/a.json" 'len(d["syscalls"])')
nproc=$(jget "$T/a.json" 'len(d["processes"])')
if [ -z "$CHROMIUM" ]; then
	skip "html: chromium" "chromium is not installed (make deps installs it)"
else
	for page in rec rep; do
		res=$(timeout 120 python3 "$KF_TOP/tests/integration/html_cdp.py" "$CHROMIUM" "$T/$page.html" \
			"$SHOTS/html-$page.png" \
			"document.querySelectorAll('table#syscalls[data-sortable]').length" \
			"document.getElementById('syscalls').tBodies[0].rows.length" \
			"document.querySelectorAll('#timeline rect.bar').length" \
			"document.querySelectorAll('#files details').length" \
			"document.scripts.length + document.querySelectorAll('img,iframe,object,embed').length" \
			"(function(){var t=document.getElementById('syscalls'),h=t.tHead.rows[0].cells[2],v=function(){
			  return Array.prototype.map.call(t.tBodies[0].rows,function(r){return +r.cells[2].dataset.v;});};
			  h.click();var d=v();h.click();var a=v();for(var i=1;i<d.length;i++)if(d[i-1]<d[i]||a[i-1]>a[i])
			  return 'unsorted at '+i;return h.getAttribute('aria-sort');})()" \
			"document.body.textContent.indexOf('<img src=x onerror=alert(2)>\"q\\'\\\\xff\\\\xfe') >= 0 &&
			 document.body.textContent.indexOf('<script>alert(1)</script>') >= 0" \
			"document.querySelectorAll('#sources').length" 2>&1)
		r() { printf '%s' "$res" | python3 -c "import json,sys; print(json.load(sys.stdin)$1)" 2>/dev/null; }
		eq "html $page: no console errors" "[]" "$(r '["errors"]')"
		eq "html $page: no dialog ran" "[]" "$(r '["dialogs"]')"
		eq "html $page: the script made the syscall table sortable" 1 "$(r '["results"][0]')"
		eq "html $page: one row per syscall" "$nsc" "$(r '["results"][1]')"
		eq "html $page: one timeline bar per process" "$nproc" "$(r '["results"][2]')"
		eq "html $page: files of each process in a <details>" "$nproc" "$(r '["results"][3]')"
		eq "html $page: the only script is the page's own, no element fetches" 1 "$(r '["results"][4]')"
		eq "html $page: a click sorts by calls, both ways" ascending "$(r '["results"][5]')"
		eq "html $page: the hostile name reads as text" True "$(r '["results"][6]')"
		check "html $page: screenshot produced" test -s "$SHOTS/html-$page.png"
	done
	eq "html rep: a loaded footprint shows its mapping (from the built-in database, as the text summary)" 1 \
		"$(r '["results"][7]')"
	# Without JavaScript the tables and charts are there as written.
	res=$(KF_CDP_NOJS=1 timeout 120 python3 "$KF_TOP/tests/integration/html_cdp.py" "$CHROMIUM" "$T/rec.html" \
		"$SHOTS/html-nojs.png" "document.querySelectorAll('table[data-sortable]').length" \
		"document.getElementById('syscalls').tBodies[0].rows.length" \
		"document.querySelectorAll('#timeline rect.bar, #classes g').length > 0" 2>&1)
	eq "html: without JavaScript the page's script did not run" 0 "$(r '["results"][0]')"
	eq "html: without JavaScript the syscall table is there" "$nsc" "$(r '["results"][1]')"
	eq "html: without JavaScript the charts are there" True "$(r '["results"][2]')"
	timeout 60 "$CHROMIUM" --headless --disable-gpu --no-sandbox --user-data-dir="$T/prof" \
		--screenshot="$SHOTS/html-cli.png" --window-size=1280,2000 "file://$T/rec.html" >/dev/null 2>&1
	check "html: chromium --screenshot produced a file" test -s "$SHOTS/html-cli.png"
fi
