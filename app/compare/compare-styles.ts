/**
 * The comparison's control styles, in a module of their own: the playground's session bar uses the
 * button style, and importing it from column-view would load every task's output component with it.
 */
export const fieldCls =
  "w-full rounded-md border border-gray-300 bg-white px-2 py-1 text-sm text-gray-900 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100";
export const buttonCls = "rounded-md border border-gray-300 px-2 py-1 text-xs hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:hover:bg-gray-900";
