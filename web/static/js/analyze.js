/* Analyse from the browser (serve --allow-analyze): the form's "Add another repository" button,
   the live progress of one run (server-sent events from /api/analyze/jobs/ID/events) and, on the
   gallery, a reload when a run it lists is published, so the new card appears. DOM calls only:
   event text is set with textContent, never parsed as markup. */
"use strict";
(function () {
  var add = document.getElementById("analyze-add");
  if (add) {
    add.addEventListener("click", function () {
      var box = document.getElementById("analyze-urls");
      var first = box.querySelector("input[name=url]");
      var label = document.createElement("label");
      label.className = "analyze-field";
      var span = document.createElement("span");
      span.textContent = "Repository URL " + (box.querySelectorAll("input[name=url]").length + 1);
      var input = document.createElement("input");
      input.type = "url"; input.name = "url"; input.autocomplete = "off"; input.className = "search";
      input.placeholder = first ? first.placeholder : "";
      label.appendChild(span); label.appendChild(input);
      box.appendChild(label);
      input.focus();
    });
  }

  function describe(ev) {
    switch (ev.event) {
      case "queued": return "queued (position " + ev.position + ")";
      case "started": return "started";
      case "stage": return ev.stage + (ev.total ? " (0 of " + ev.total + ")" : "");
      case "progress": return ev.stage + " (" + ev.done + (ev.total ? " of " + ev.total : "") + ")";
      case "published": return "published: " + (ev.counts ? ev.counts.components + " components, " + ev.counts.connections + " connections" : "model written");
      case "failed": return "failed: " + ev.message;
      default: return String(ev.event);
    }
  }

  function follow(id, onEvent) {
    var source = new EventSource("/api/analyze/jobs/" + encodeURIComponent(id) + "/events");
    source.onmessage = function (m) {
      var ev;
      try { ev = JSON.parse(m.data); } catch (e) { return; }
      onEvent(ev);
      if (ev.event === "published" || ev.event === "failed") source.close();
    };
    source.onerror = function () { if (source.readyState === EventSource.CLOSED) return; };
    return source;
  }

  var page = document.getElementById("analyze-job");
  if (page) {
    var list = document.getElementById("job-events"), state = document.getElementById("job-state");
    var last = null;
    follow(page.getAttribute("data-job"), function (ev) {
      var text = describe(ev);
      if (ev.event === "progress" && last && last.getAttribute("data-stage") === ev.stage) {
        last.textContent = text;
      } else {
        last = document.createElement("li");
        last.setAttribute("data-event", ev.event);
        if (ev.stage) last.setAttribute("data-stage", ev.stage);
        last.textContent = text;
        list.appendChild(last);
      }
      if (ev.event === "started" || ev.event === "stage") { state.textContent = "running"; page.setAttribute("data-state", "running"); }
      if (ev.event === "published") {
        state.textContent = "published";
        page.setAttribute("data-state", "published");
        document.getElementById("job-result").classList.remove("hidden");
      }
      if (ev.event === "failed") { state.textContent = "failed: " + ev.message; page.setAttribute("data-state", "failed"); }
    });
  }

  var runs = document.getElementById("analyze-runs");
  if (runs) {
    Array.prototype.forEach.call(runs.querySelectorAll("li[data-job]"), function (li) {
      var st = li.getAttribute("data-state");
      if (st !== "queued" && st !== "running") return;
      var label = li.querySelector(".job-state");
      follow(li.getAttribute("data-job"), function (ev) {
        label.textContent = describe(ev);
        if (ev.event === "published") location.reload(); // the new card is in the page the server sends
        if (ev.event === "failed") li.setAttribute("data-state", "failed");
      });
    });
  }
})();
