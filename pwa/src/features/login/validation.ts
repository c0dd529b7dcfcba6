/** Registration rules and texts of docs/console-contract.md §5. */
export interface RegistrationInput {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export type RegistrationErrors = Partial<Record<keyof RegistrationInput, string>>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateRegistration(input: RegistrationInput): RegistrationErrors {
  const errors: RegistrationErrors = {};
  if (input.username.trim().length < 3) errors.username = 'Username must be at least 3 characters long';
  if (input.email.trim() && !EMAIL_PATTERN.test(input.email.trim())) errors.email = 'Email address is invalid';
  if (input.password.length < 8) errors.password = 'Password must be at least 8 characters long';
  if (input.password !== input.confirmPassword) errors.confirmPassword = 'Passwords do not match';
  return errors;
}
