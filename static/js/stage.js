// A live bracket or round-robin page: the server says "changed" over the stage's websocket
// and the page fetches its drawing again (htmx). It also refreshes after every reconnect
// (it may have missed a change) and when the phone comes back to the page; while the
// socket is down it reconnects with backoff and the page's slow poll keeps it current.
(function () {
  var root = document.querySelector("[data-stage-socket]");
  if (!root || !window.WebSocket) return;
  var path = root.getAttribute("data-stage-socket");
  var source = root.getAttribute("data-refresh-url");
  var ws = null, attempts = 0, opened = false;

  function refresh() {
    if (window.htmx) window.htmx.ajax("GET", source, { target: root, swap: "innerHTML" });
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try { ws = new WebSocket(scheme + location.host + path); } catch (e) { return retry(); }
    ws.onmessage = function (event) {
      var message = {};
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "changed" || (message.type === "hello" && opened)) refresh();
      if (message.type === "hello") { opened = true; attempts = 0; }
    };
    ws.onclose = function (event) { if (event.code !== 4404 && event.code !== 4403) retry(); };
  }

  function retry() {
    attempts += 1;
    // Backoff with jitter: a server restart must not bring every phone back at once.
    var wait = Math.min(30000, 1000 * Math.pow(2, attempts)) * (0.5 + Math.random());
    setTimeout(connect, wait);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") refresh();
  });
  connect();
})();
