#!/bin/sh
# End-to-end MCP checks with the official TypeScript tools, against the
# built convsearch binary:
#   e2e          `convsearch mcp` over stdio under @modelcontextprotocol/sdk's
#                client (e2e.mjs): every tool, structured results, errors
#   conformance  @modelcontextprotocol/conformance against /mcp of
#                `convsearch serve`, with conformance-baseline.yml listing the
#                scenarios that need the suite's own test server
#   all          both (default)
# Needs Node >= 20, npm and the npm registry. Installs into a temporary
# folder and removes it. The servers get a private HOME and data folder and
# index only examples/ and mcp/testdata/mcp/.
# Environment: CONVSEARCH_BIN (default: go build one), MCP_SDK_VERSION,
# MCP_CONFORMANCE_VERSION.
set -eu

mode=${1:-all}
case $mode in e2e | conformance | all) ;; *)
	echo "usage: $0 [e2e|conformance|all]" >&2
	exit 2
	;;
esac
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
sdk_version=${MCP_SDK_VERSION:-1.32.2}
conformance_version=${MCP_CONFORMANCE_VERSION:-0.1.13} # later versions need Node 22

work=$(mktemp -d "${TMPDIR:-/tmp}/convsearch-mcp.XXXXXX")
serve_pid=
proxy_pid=
cleanup() {
	for pid in $proxy_pid $serve_pid; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# timeout_words prints the words that bound a command to $1 seconds, where
# timeout(1) exists.
timeout_words() {
	if command -v timeout >/dev/null 2>&1; then
		echo "timeout $1"
	fi
}

# bounded runs a command for at most $1 seconds, where timeout(1) exists.
bounded() {
	secs=$1
	shift
	if command -v timeout >/dev/null 2>&1; then
		timeout "$secs" "$@"
	else
		"$@"
	fi
}

bin=${CONVSEARCH_BIN:-}
if [ -z "$bin" ]; then
	echo "== go build ./cmd/convsearch"
	(cd "$repo" && go build -o "$work/convsearch" ./cmd/convsearch)
	bin=$work/convsearch
fi

home=$work/home
mkdir -p "$home"
private() {
	env HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
		CONVSEARCH_DATA= CLAUDE_CONFIG_DIR= CODEX_HOME= NO_COLOR=1 "$@"
}
examples=$repo/examples
fixtures=$repo/mcp/testdata/mcp

echo "== npm install @modelcontextprotocol/sdk@$sdk_version @modelcontextprotocol/conformance@$conformance_version (node $(node --version))"
mkdir -p "$work/npm"
cd "$work/npm"
printf '{"name":"convsearch-mcp-e2e","private":true,"type":"module"}\n' >package.json
bounded 300 npm install --no-audit --no-fund --loglevel=error \
	"@modelcontextprotocol/sdk@$sdk_version" "@modelcontextprotocol/conformance@$conformance_version"

status=0

if [ "$mode" = e2e ] || [ "$mode" = all ]; then
	echo "== e2e: convsearch mcp over stdio under the TypeScript SDK client"
	cp "$here/e2e.mjs" "$work/npm/e2e.mjs"
	if ! private $(timeout_words 120) node "$work/npm/e2e.mjs" "$bin" "$examples" "$fixtures"; then
		status=1
	fi
fi

if [ "$mode" = conformance ] || [ "$mode" = all ]; then
	echo "== conformance: @modelcontextprotocol/conformance@$conformance_version against convsearch serve /mcp"
	daemon=$home/data/convsearch/daemon.json
	# Not through private: $! must be the daemon itself, for cleanup to stop it.
	env HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
		CONVSEARCH_DATA= CLAUDE_CONFIG_DIR= CODEX_HOME= NO_COLOR=1 \
		"$bin" serve --addr 127.0.0.1:0 --no-default-roots --root "$examples" --root "$fixtures" \
		>"$work/serve.log" 2>&1 &
	serve_pid=$!
	tries=0
	while [ ! -s "$daemon" ]; do
		tries=$((tries + 1))
		if [ $tries -gt 150 ] || ! kill -0 "$serve_pid" 2>/dev/null; then
			echo "convsearch serve did not start:" >&2
			cat "$work/serve.log" >&2
			exit 1
		fi
		sleep 0.1
	done
	addr=$(sed -n 's/.*"addr": *"\([^"]*\)".*/\1/p' "$daemon")
	# /mcp needs the daemon's token, which the suite cannot send: a proxy adds it.
	CONVSEARCH_TOKEN=$(sed -n 's/.*"token": *"\([^"]*\)".*/\1/p' "$daemon") \
		node "$here/authproxy.mjs" "$addr" >"$work/proxy.port" &
	proxy_pid=$!
	tries=0
	while [ ! -s "$work/proxy.port" ]; do
		tries=$((tries + 1))
		if [ $tries -gt 100 ] || ! kill -0 "$proxy_pid" 2>/dev/null; then
			echo "the token proxy did not start" >&2
			exit 1
		fi
		sleep 0.1
	done
	if ! bounded 300 npx --no-install conformance server --url "http://127.0.0.1:$(cat "$work/proxy.port")/mcp" \
		--expected-failures "$here/conformance-baseline.yml" -o "$work/conformance"; then
		echo "conformance: unexpected failures (or a stale baseline entry); server log:" >&2
		tail -n 50 "$work/serve.log" >&2
		status=1
	fi
fi

exit $status
