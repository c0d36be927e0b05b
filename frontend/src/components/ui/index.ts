/**
 * The SPA's UI layer: accessible primitives (Radix UI underneath) styled with CSS modules over the
 * design tokens in src/styles/tokens.css. Pages and features build on these, never on their own copies.
 */
export {
  Button,
  IconButton,
  buttonClass,
  type ButtonProps,
  type IconButtonProps,
  type ButtonVariant,
  type ButtonSize,
} from './Button.tsx';
export {
  TextField,
  PasswordField,
  SelectField,
  FieldFrame,
  type TextFieldProps,
  type SelectFieldProps,
} from './TextField.tsx';
export { Dialog, DialogMessage, CLOSE_LABEL, type DialogProps } from './Dialog.tsx';
export { ConfirmDialog, CANCEL_LABEL, type ConfirmDialogProps } from './ConfirmDialog.tsx';
export { FormFooter, type FormFooterProps } from './FormFooter.tsx';
export { ConfirmProvider, useConfirm, type ConfirmOptions } from './Confirm.tsx';
export {
  DropdownMenu,
  DropdownMenuTrigger,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuLabel,
} from './DropdownMenu.tsx';
export { ActionsMenu, type ActionsMenuItem } from './ActionsMenu.tsx';
export { Popover, PopoverTrigger, PopoverContent, PopoverClose, PopoverAnchor } from './Popover.tsx';
export { Tooltip, TooltipProvider } from './Tooltip.tsx';
export { Tabs, TabsList, TabsTrigger, TabsContent } from './Tabs.tsx';
export { Switch } from './Switch.tsx';
export {
  Toolbar,
  ToolbarButton,
  ToolbarSeparator,
  ToolbarToggleGroup,
  ToolbarToggleItem,
  ToolbarLink,
} from './Toolbar.tsx';
export { Table, type TableColumn } from './Table.tsx';
