/** The server's answer to a failed submit, shown above the form's fields. */
export function FormAlert({ message, testId }: { message: string | null; testId: string }) {
  return message ? (
    <div className="alert alert--error" role="alert" data-testid={testId}>
      {message}
    </div>
  ) : null;
}
