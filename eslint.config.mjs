// ESLint for the browser client (src/qipai/web/static/js): ES modules in the browser, no
// build step.  `.ci/run` installs ESLint into .ci/node and runs it; the recommended rules
// catch undefined names, unused variables and unreachable code.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/qipai/web/static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
    },
  },
];
