// Live fragments: an element with data-live-socket (a tournament's socket path) and an
// htmx hx-get triggered by "live:refresh" is fetched again after every change the socket
// announces ("changed"), and on every (re)connect ("hello": a change may have been missed
// while away). While the socket is down it reconnects with jittered backoff and refreshes
// every 30 s; a phone coming back to the page refreshes at once. The socket carries no
// data, only "something changed": what a fragment shows is decided by its page's view.
(function () {
  "use strict";
  var POLL_MS = 30000, PING_MS = 25000;
  var state = document.getElementById("live-state");

  function show(name, words) {
    if (!state) return;
    state.setAttribute("data-state", name);
    state.textContent = words;
  }

  function watch(root) {
    var ws = null, attempts = 0, connected = false, timer = null, lastSeen = 0;

    // The user's own requests on the page (a one-tap result in the grid) answer in place
    // ("Entered"): a refresh waits a few seconds after one, so that answer is seen.
    var QUIET_MS = 5000, lastOwn = 0;
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      if (event.target !== root) lastOwn = Date.now();
    });

    function refresh() {
      // A burst of changes (eight results in a row) becomes one or two fetches.
      if (timer) return;
      var wait = Math.max(150 + Math.random() * 350, lastOwn + QUIET_MS - Date.now());
      timer = setTimeout(function () {
        timer = null;
        if (Date.now() - lastOwn < QUIET_MS) { refresh(); return; }
        if (window.htmx) window.htmx.trigger(root, "live:refresh");
      }, wait);
    }

    function connect() {
      var scheme = location.protocol === "https:" ? "wss://" : "ws://";
      try { ws = new WebSocket(scheme + location.host + root.getAttribute("data-live-socket")); }
      catch (e) { retry(); return; }
      ws.onmessage = function (event) {
        var message = {};
        try { message = JSON.parse(event.data); } catch (e) { return; }
        lastSeen = Date.now();
        if (message.type === "hello") { connected = true; attempts = 0; show("live", "live"); refresh(); }
        else if (message.type === "changed") refresh();
      };
      ws.onclose = function (event) {
        ws = null; connected = false;
        if (event.code === 4403 || event.code === 4404) { show("offline", "no longer available: reload the page"); return; }
        show("offline", "reconnecting…");
        retry();
      };
    }

    function retry() {
      attempts += 1;
      setTimeout(connect, Math.min(30000, 1000 * Math.pow(2, attempts)) * (0.5 + Math.random()));
    }

    setInterval(function () { if (!connected) refresh(); }, POLL_MS);
    setInterval(function () {
      if (ws && ws.readyState === 1) {
        if (Date.now() - lastSeen > 3 * PING_MS) { ws.close(); return; }
        ws.send(JSON.stringify({ type: "ping" }));
      }
    }, PING_MS);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") refresh();
    });
    connect();
  }

  document.querySelectorAll("[data-live-socket]").forEach(watch);
})();
