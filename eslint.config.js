// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "data/", "coverage/", "dist/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "error",
    },
  },
  {
    // After the store became asynchronous (issue 16) a forgotten await is the bug to fear: a promise
    // is always truthy and its rejection lands nowhere. Typed rules, for src/ only (speed).
    files: ["src/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
    },
  },
  {
    // CLI entry points and benchmarks print to the terminal on purpose.
    files: ["src/sandbox/cli.ts", "bench/**", "src/config/env.ts"],
    rules: { "no-console": "off" },
  },
);
