import { AuthSwitchLink } from './auth-form';
import { AuthLayout } from './auth-layout';
import { LoginForm } from './login-form';

/** 'Login As Merchant' with Email, password, SIGN IN and a Forgot password link. */
export function MerchantLoginPage() {
  return (
    <AuthLayout
      title="Login As Merchant"
      subtitle="For merchant (enterprise) accounts. Use the email your administrator registered."
      footer={<AuthSwitchLink question="Not a merchant?" to="/login" label="Log in to your Dialflow account" />}
    >
      <LoginForm variant="merchant" />
    </AuthLayout>
  );
}
