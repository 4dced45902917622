// authproxy forwards every request to the daemon at argv[2] (host:port),
// adding the daemon's token ($CONVSEARCH_TOKEN, from daemon.json) as a
// bearer token: the conformance suite cannot send one itself. The Host
// header goes through unchanged, so the suite's DNS-rebinding checks still
// reach the daemon's. It prints the port it listens on.
import http from "node:http";

const [host, port] = process.argv[2].split(":");
const auth = "Bearer " + process.env.CONVSEARCH_TOKEN;
const server = http.createServer((req, res) => {
  const up = http.request({ host, port, method: req.method, path: req.url, headers: { ...req.headers, authorization: auth } }, (r) => {
    res.writeHead(r.statusCode, r.headers);
    r.pipe(res);
  });
  up.on("error", (e) => {
    res.writeHead(502);
    res.end(String(e));
  });
  req.pipe(up);
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
