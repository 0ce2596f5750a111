/* Initialise the vendored swagger-ui from a static file (the CSP forbids inline script). */
"use strict";
(function () {
  var holder = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: holder.getAttribute("data-openapi-url"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
})();
