// A live bracket or round-robin page: the server says "changed" over the stage's websocket
// and the page fetches its drawing again (htmx). It also refreshes after every reconnect
// (it may have missed a change) and when the phone comes back to the page; while the
// socket is down static/js/live.js reconnects and the page polls (with its own slow poll,
// the drawing's hx-trigger, beside it).
(function () {
  "use strict";
  var root = document.querySelector("[data-stage-socket]");
  if (!root || !window.WebSocket || !window.Live) return;
  var source = root.getAttribute("data-refresh-url"), opened = false;

  function refresh() {
    if (window.htmx) window.htmx.ajax("GET", source, { target: root, swap: "innerHTML" });
  }

  window.Live.open({
    path: root.getAttribute("data-stage-socket"),
    heartbeat: { type: "ping" },
    onMessage: function (message) {
      if (message.type === "changed" || (message.type === "hello" && opened)) refresh();
      if (message.type === "hello") opened = true;
    },
    poll: refresh,
    resync: refresh
  });
})();
