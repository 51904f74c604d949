-- What tests/neovim.rs has headless Neovim do after the README's init.lua (`-u`) has
-- opened the ruleset: every wait bounded, the findings written as JSON to
-- $UMPIRE_NVIM_OUT, then quit.
--   1. wait for the diagnostics of the mistake;
--   2. replace line $UMPIRE_NVIM_FIX_LINE (0-based) with $UMPIRE_NVIM_FIX_TEXT, and wait
--      for the diagnostics to go;
--   3. ask for completion at $UMPIRE_NVIM_COMPLETE_LINE, $UMPIRE_NVIM_COMPLETE_CHARACTER;
--   4. refresh the code lenses, read them, and run the one on line $UMPIRE_NVIM_LENS_LINE
--      (0-based) as a user does (`vim.lsp.codelens.run()` on that line), keeping the
--      message the server shows.
local wait = tonumber(vim.env.UMPIRE_NVIM_WAIT_MS or "30000")
local out = {}
out.published = vim.wait(wait, function() return #vim.diagnostic.get(0) > 0 end, 50)
out.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out.diagnostics, {
    line = d.lnum, character = d.col, code = d.code, message = d.message, severity = d.severity,
  })
end
local fix = tonumber(vim.env.UMPIRE_NVIM_FIX_LINE)
vim.api.nvim_buf_set_lines(0, fix, fix + 1, false, { vim.env.UMPIRE_NVIM_FIX_TEXT })
out.fixed = vim.wait(wait, function() return #vim.diagnostic.get(0) == 0 end, 50)
local params = {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  position = {
    line = tonumber(vim.env.UMPIRE_NVIM_COMPLETE_LINE),
    character = tonumber(vim.env.UMPIRE_NVIM_COMPLETE_CHARACTER),
  },
}
local answers = vim.lsp.buf_request_sync(0, "textDocument/completion", params, wait) or {}
out.completion = {}
for _, answer in pairs(answers) do
  for _, item in ipairs(answer.result or {}) do
    table.insert(out.completion, { label = item.label, detail = item.detail })
  end
end
vim.lsp.codelens.refresh()
out.lensed = vim.wait(wait, function() return #vim.lsp.codelens.get(0) > 0 end, 50)
out.lenses = {}
for _, lens in ipairs(vim.lsp.codelens.get(0)) do
  table.insert(out.lenses, { line = lens.range.start.line, title = lens.command and lens.command.title })
end
local shown = {}
vim.lsp.handlers["window/showMessage"] = function(_, result)
  table.insert(shown, { type = result.type, message = result.message })
end
vim.api.nvim_win_set_cursor(0, { tonumber(vim.env.UMPIRE_NVIM_LENS_LINE) + 1, 0 })
vim.lsp.codelens.run()
out.ran = vim.wait(wait, function() return #shown > 0 end, 50)
out.shown = shown
out.filetype = vim.bo.filetype
out.omnifunc = vim.bo.omnifunc
local file = io.open(vim.env.UMPIRE_NVIM_OUT, "w")
file:write(vim.fn.json_encode(out))
file:close()
vim.cmd("qa!")
