/* "Turn on notifications here": registers the service worker, subscribes this browser with
   the server's VAPID key and gives the subscription to the server (the user's own). */
(function () {
  const box = document.getElementById("push-device");
  if (!box) return;
  const on = document.getElementById("push-on");
  const off = document.getElementById("push-off");
  const state = document.getElementById("push-state");
  const url = box.dataset.subscribe;

  // The reader's words (Django's JavaScript catalogue, /jsi18n/; English without it).
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(format, values) {
    return window.interpolate ? window.interpolate(format, values, true)
      : format.replace(/%\((\w+)\)s/g, (whole, name) => values[name]);
  }

  function say(words) {
    state.textContent = words;
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(gettext("This browser cannot receive push notifications."));
    on.hidden = true;
    return;
  }
  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+")
      .replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }
  function csrf() {
    const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }
  async function send(method, body) {
    const response = await fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({}));
      throw new Error(answer.detail || gettext("The server refused it."));
    }
  }
  async function registration() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() =>
      navigator.serviceWorker.ready
    );
  }
  async function show() {
    const reg = await registration();
    const sub = await reg.pushManager.getSubscription();
    on.hidden = Boolean(sub);
    off.hidden = !sub;
    if (sub) say(gettext("This device receives your notifications."));
  }
  on.addEventListener("click", async () => {
    on.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say(gettext("Notifications are blocked for this site: allow them in the browser's settings."));
        return;
      }
      const reg = await registration();
      const sub = await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.key),
      });
      const json = sub.toJSON();
      await send("POST", { endpoint: json.endpoint, keys: json.keys });
      say(gettext("This device receives your notifications."));
      on.hidden = true;
      off.hidden = false;
    } catch (error) {
      say(interpolate(gettext("Could not turn notifications on: %(reason)s"), { reason: error.message }));
    } finally {
      on.disabled = false;
    }
  });
  off.addEventListener("click", async () => {
    const reg = await registration();
    const sub = await reg.pushManager.getSubscription();
    if (sub) {
      await send("DELETE", { endpoint: sub.endpoint }).catch(() => {});
      await sub.unsubscribe();
    }
    say(gettext("This device no longer receives your notifications."));
    on.hidden = false;
    off.hidden = true;
  });
  show().catch(() => {});
})();
