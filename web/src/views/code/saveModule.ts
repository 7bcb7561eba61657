/** Hands a downloaded module to the browser as a file: a link clicked once, its URL freed after the browser has taken it. */
export function saveModule(file: { readonly fileName: string; readonly code: string } | null): void {
  if (!file) return;
  const url = URL.createObjectURL(new Blob([file.code], { type: 'text/javascript' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
