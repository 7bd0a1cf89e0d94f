// trustlake view: review actions and keyboard shortcuts. The pages work
// without this script; it only posts reviews (with the CSRF token from the
// page's meta tag) and binds keys.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="csrf-token"]');
  var form = document.getElementById("review");
  function status(text) {
    var s = form && form.querySelector(".status");
    if (s) { s.textContent = text; }
  }
  function post(body) {
    if (!meta || !form) { return; }
    body.episode_id = form.dataset.episode;
    status("saving…");
    fetch("/api/reviews", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": meta.content },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) { throw new Error(j.error || r.statusText); }
        status("saved");
        window.location.reload();
      });
    }).catch(function (e) { status("error: " + e.message); });
  }
  if (form) {
    form.addEventListener("click", function (ev) {
      var b = ev.target.closest("button");
      if (!b) { return; }
      if (b.dataset.category) { post({ category: b.dataset.category }); }
      else if (b.dataset.pass) { post({ pass: b.dataset.pass === "true" }); }
      else if (b.dataset.note) { post({ note: form.elements.note.value }); }
    });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });
  }
  document.addEventListener("keydown", function (ev) {
    var t = ev.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT" || ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var cats = form ? form.querySelectorAll("button[data-category]") : [];
    var n = parseInt(ev.key, 10);
    if (n >= 1 && n <= cats.length) { cats[n - 1].click(); return; }
    if (ev.key === "p" && form) { post({ pass: true }); return; }
    if (ev.key === "f" && form) { post({ pass: false }); return; }
    if (ev.key === "n" && form) { ev.preventDefault(); form.elements.note.focus(); return; }
    var link = null;
    if (ev.key === "j") { link = document.querySelector("a.next"); }
    if (ev.key === "k") { link = document.querySelector("a.prev"); }
    if (link) { window.location.href = link.href; }
  });
})();
