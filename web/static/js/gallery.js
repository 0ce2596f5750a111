/* Client-side filter for the gallery cards. Reads only data attributes rendered (escaped) by Jinja. */
"use strict";
(function () {
  var input = document.getElementById("gallery-search");
  var cards = Array.prototype.slice.call(document.querySelectorAll(".card"));
  var none = document.getElementById("gallery-none");
  var count = document.getElementById("gallery-count");
  function apply() {
    var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    cards.forEach(function (card) {
      var text = card.getAttribute("data-search") || "";
      var ok = terms.every(function (t) { return text.indexOf(t) >= 0; });
      card.classList.toggle("hidden", !ok);
      if (ok) shown++;
    });
    count.textContent = String(shown);
    none.classList.toggle("hidden", shown > 0 || cards.length === 0);
  }
  if (input) { input.addEventListener("input", apply); apply(); }
})();
