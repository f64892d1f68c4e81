// The floor of `gauntlet watch`'s first paint: a bare Ink app that draws one line and waits for
// q, started as the UI is (Node, React's production build, Ink on a pseudo terminal). The
// benchmark times it beside the UI on the same machine in the same run.

// React picks its build when first loaded, so the modules load after this line, as in the UI.
process.env.NODE_ENV ??= "production";
const [{ render, Text, useApp, useInput }, { createElement: h }] = await Promise.all([
  import("ink"),
  import("react"),
]);

function Hello() {
  const { exit } = useApp();
  useInput((input) => {
    if (input === "q") exit();
  });
  return h(Text, null, "hello from Ink");
}

await render(h(Hello)).waitUntilExit();
